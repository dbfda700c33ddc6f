import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache, type StatementStats } from '../../src/db/statement-cache';

// Rows are read as arrays and shaped by a function made per statement: they must come out as
// better-sqlite3's own objects would, and a schema change must not leave a stale shape behind.

let sqlite: Database.Database;
afterEach(() => sqlite?.close());

function open(): { db: Kysely<any>; stats: StatementStats } {
  sqlite = new Database(':memory:');
  const stats = { executed: 0, prepared: 0 };
  return { db: new Kysely<any>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, stats) }) }), stats };
}

describe('statement cache', () => {
  it('shapes rows as better-sqlite3 does, the later of two equal column names winning', async () => {
    const { db } = open();
    await sql`CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT, "odd ""name""" TEXT)`.execute(db);
    await sql`CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER)`.execute(db);
    await sql`INSERT INTO a VALUES (1, 'x', 'q'), (2, 'y', null)`.execute(db);
    await sql`INSERT INTO b VALUES (10, 1)`.execute(db);
    const query = sql`SELECT a.*, b.id FROM a JOIN b ON b.a_id = a.id`;
    const ours = (await query.execute(db)).rows;
    const theirs = sqlite.prepare('SELECT a.*, b.id FROM a JOIN b ON b.a_id = a.id').all();
    expect(ours).toEqual(theirs);
    expect(ours).toEqual([{ id: 10, name: 'x', 'odd "name"': 'q' }]);
    expect(await db.selectFrom('a').selectAll().orderBy('id').execute()).toEqual([
      { id: 1, name: 'x', 'odd "name"': 'q' }, { id: 2, name: 'y', 'odd "name"': null },
    ]);
  });

  it('prepares a statement once, and streams rows shaped the same way', async () => {
    const { db, stats } = open();
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`.execute(db);
    await db.insertInto('t').values([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]).execute();
    const before = stats.prepared;
    for (let i = 0; i < 3; i++) await db.selectFrom('t').selectAll().where('id', '=', i).execute();
    expect(stats.prepared - before).toBe(1);
    const streamed = [];
    for await (const row of db.selectFrom('t').selectAll().orderBy('id').stream()) streamed.push(row);
    expect(streamed).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]);
  });

  it('SELECT * after ALTER TABLE ADD COLUMN has the new column (regression: a cached shape)', async () => {
    const { db } = open();
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`.execute(db);
    await db.insertInto('t').values({ id: 1 }).execute();
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1 }]);
    await sql`ALTER TABLE t ADD COLUMN extra TEXT NOT NULL DEFAULT 'd'`.execute(db);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, extra: 'd' }]);
  });

  it('answers INSERT ... RETURNING with a shaped row and plain writes with their counts', async () => {
    const { db } = open();
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)`.execute(db);
    expect(await db.insertInto('t').values({ v: 'a' }).returningAll().executeTakeFirst()).toEqual({ id: 1, v: 'a' });
    const r = await db.updateTable('t').set({ v: 'b' }).executeTakeFirst();
    expect(r.numUpdatedRows).toBe(1n);
  });
});
