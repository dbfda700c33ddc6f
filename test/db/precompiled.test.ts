import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import { precompiled } from '../../src/db/precompiled';

// A statement built once per database, its values swapped in per call: each call must read
// its own arguments' rows, wherever (and however often) they sit in the statement.

const opened: DB[] = [];

async function itemsDb(rows: { id: number; owner: number; name: string }[]): Promise<DB> {
  const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) }) as unknown as DB;
  opened.push(db);
  await sql`CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, name TEXT NOT NULL)`.execute(db);
  for (const r of rows) await sql`INSERT INTO item (id, owner, name) VALUES (${r.id}, ${r.owner}, ${r.name})`.execute(db);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

/* eslint-disable @typescript-eslint/no-explicit-any */
const items = (db: DB): any => (db as any).selectFrom('item');

describe('precompiled', () => {
  it('builds once per database and runs each call with its own values', async () => {
    let builds = 0;
    const byOwner = precompiled(2, (db: DB, owner: number, name: string) => {
      builds++;
      // `owner` twice: every place a parameter sits gets the call's value.
      return items(db).select('id').where('owner', '=', owner).where((eb: any) => eb.or([eb('name', '=', name), eb('id', '=', owner)])).orderBy('id');
    });
    const a = await itemsDb([{ id: 1, owner: 1, name: 'x' }, { id: 2, owner: 1, name: 'y' }, { id: 3, owner: 2, name: 'y' }]);
    expect(await byOwner(a, 1, 'y')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await byOwner(a, 2, 'y')).toEqual([{ id: 3 }]);
    expect(await byOwner(a, 2, 'none')).toEqual([]);
    expect(builds).toBe(1);
    // Another database gets its own statement (its own dialect and connection).
    const b = await itemsDb([{ id: 7, owner: 1, name: 'y' }]);
    expect(await byOwner(b, 1, 'y')).toEqual([{ id: 7 }]);
    expect(builds).toBe(2);
  });

  it('refuses a statement where an argument is not a bound parameter', async () => {
    const db = await itemsDb([{ id: 1, owner: 1, name: 'x' }]);
    const folded = precompiled(1, (d: DB, name: string) => items(d).select('id').where('name', '=', sql.lit(name)));
    await expect(folded(db, 'x')).rejects.toThrow(/parameter 0 is not bound/);
  });
});
