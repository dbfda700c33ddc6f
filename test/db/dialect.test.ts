import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, lockRow, lockRows } from '../../src/db/dialect';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';

// The dialect module answers alike on both engines: each piece runs on SQLite (in memory) and on
// a throwaway PostgreSQL server over the same rows, and must give the same answer on each.

/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

let server: TempPostgres;
const engines: Record<'sqlite' | 'postgres', Db> = {} as never;

const ROWS = [
  { id: 1, meta: '{"review_id": 7, "on": true}', topics: '["Go","cli"]', body: 'Thanks @alice, see below' },
  { id: 2, meta: '{"review_id": 9, "on": false}', topics: '["web"]', body: 'cc @alice-bot and (@Bob)' },
  { id: 3, meta: '{}', topics: '[]', body: 'mail alice@example.com, 100%_done' },
];

async function fill(db: Db): Promise<void> {
  await sql`CREATE TABLE t (id integer PRIMARY KEY, meta text NOT NULL, topics text NOT NULL, body text NOT NULL, n integer NOT NULL DEFAULT 0)`.execute(db);
  await sql`CREATE TABLE issue (id integer PRIMARY KEY, title text NOT NULL, content text NOT NULL)`.execute(db);
  await db.insertInto('t').values(ROWS).execute();
  await db.insertInto('issue').values([{ id: 1, title: 'Crash on Start', content: 'segfault' }, { id: 2, title: 'docs', content: 'the START page' }]).execute();
}

beforeAll(async () => {
  if (postgresInstalled) server = startPostgres();
  if (postgresInstalled) engines.postgres = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ host: server.socketDir, port: server.port, user: server.user, database: server.database, max: 2 }) }) });
  engines.sqlite = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  for (const db of Object.values(engines)) await fill(db);
}, 60_000);
afterAll(async () => {
  for (const db of Object.values(engines)) await db?.destroy();
  server?.stop();
});

const ids = (rows: { id: unknown }[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);

describe.each(postgresInstalled ? ['sqlite', 'postgres'] as const : ['sqlite'] as const)('the %s dialect', (engine) => {
  const db = () => engines[engine];
  const d = () => dialectOf(db());

  it('knows its engine from the Kysely instance, transactions included', async () => {
    expect(d().engine).toBe(engine);
    await db().transaction().execute(async (trx) => { expect(dialectOf(trx).engine).toBe(engine); });
  });

  it('reads numbers and flags out of JSON text, and array members in lower case', async () => {
    const byReview = await db().selectFrom('t').select('id').where(d().jsonNumber('meta', 'review_id'), '=', 9).execute();
    expect(ids(byReview)).toEqual([2]);
    const review = await db().selectFrom('t').select(['id', d().jsonNumber('meta', 'review_id').as('r')]).orderBy('id').execute();
    expect(review.map((r) => (r.r === null ? null : Number(r.r)))).toEqual([7, 9, null]);
    expect(ids(await db().selectFrom('t').select('id').where(d().jsonFlag('meta', 'on', true)).execute())).toEqual([1, 3]);
    expect(ids(await db().selectFrom('t').select('id').where(d().jsonFlag('meta', 'on', false)).execute())).toEqual([1]);
    expect(ids(await db().selectFrom('t').select('id').where(d().jsonArrayHasLower('topics', 'go')).execute())).toEqual([1]);
  });

  it('lists a JSON array column\'s members as rows, and takes the greater of two values', async () => {
    const { rows } = await sql<{ name: string; n: number }>`SELECT j.value AS name, count(*) AS n FROM t, ${d().jsonElements('t.topics', 'j')} GROUP BY j.value ORDER BY j.value`.execute(db());
    expect(rows.map((r) => [r.name, Number(r.n)])).toEqual([['Go', 1], ['cli', 1], ['web', 1]]);
    await db().updateTable('t').set({ n: d().greatest(sql`n - 1`, sql`0`) }).execute();
    expect((await db().selectFrom('t').select('n').execute()).map((r) => Number(r.n))).toEqual([0, 0, 0]);
  });

  it('matches LIKE patterns whatever the case, escapes kept, and @mentions as whole names', async () => {
    const like = (p: string) => db().selectFrom('t').select('id').where(d().likeInsensitive('body', p)).execute();
    expect(ids(await like('%THANKS%'))).toEqual([1]);
    expect(ids(await like('%100\\%\\_%'))).toEqual([3]);
    expect(ids(await like('%100\\%\\_x%'))).toEqual([]);
    const mentioning = async (name: string) => ids(await db().selectFrom('t').select('id').where(d().mentions('body', name)).execute());
    expect(await mentioning('alice')).toEqual([1]);
    expect(await mentioning('alice-bot')).toEqual([2]);
    expect(await mentioning('bob')).toEqual([2]);
  });

  it('says whether a table exists and recognises a unique constraint\'s refusal', async () => {
    expect(await d().tableExists(db(), 't')).toBe(true);
    expect(await d().tableExists(db(), 'nothing_here')).toBe(false);
    const err = await db().insertInto('t').values(ROWS[0]!).execute().then(() => null, (e: unknown) => e);
    expect(d().isUniqueViolation(err)).toBe(true);
    expect(d().isUniqueViolation(new Error('disk I/O error'))).toBe(false);
  });
});

withPostgres('the postgres dialect', () => {
  it('finds issues by a piece of their title or body, whatever the case (SQLite: the trigram index)', async () => {
    const db = engines.postgres;
    const found = await db.selectFrom('issue as i').select('i.id').where(dialectOf(db).issueText('i.id', 'start')).execute();
    expect(ids(found)).toEqual([1, 2]);
    expect(ids(await db.selectFrom('issue as i').select('i.id').where(dialectOf(db).issueText('i.id', 'fault')).execute())).toEqual([1]);
  });
});

withPostgres('lockRow', () => {
  it('runs nothing on SQLite, whose writers are serialized already', async () => {
    const db = engines.sqlite;
    await db.transaction().execute(async (trx) => {
      await lockRow(trx, 'issue', 1);
      await lockRows(trx, 'issue', async () => { throw new Error('SQLite never asks which rows'); });
    });
  });

  it('on PostgreSQL holds the row until the transaction ends: a second locker waits its turn', async () => {
    const db = engines.postgres;
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let locked!: () => void;
    const firstHolds = new Promise<void>((r) => { locked = r; });
    const order: string[] = [];
    const first = db.transaction().execute(async (trx) => {
      await lockRow(trx, 'issue', 1);
      locked();
      await held;
      await trx.updateTable('issue').set({ title: 'first' }).where('id', '=', 1).execute();
      order.push('first commits');
    });
    await firstHolds;
    let secondDone = false;
    const second = db.transaction().execute(async (trx) => {
      await lockRow(trx, 'issue', 1);
      order.push('second locks');
      // A fresh statement after the lock reads what the first holder committed.
      return (await trx.selectFrom('issue').select('title').where('id', '=', 1).executeTakeFirstOrThrow()).title;
    }).finally(() => { secondDone = true; });
    // Poll briefly: the second stays blocked while the first holds the row.
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 20));
    expect(secondDone).toBe(false);
    release();
    await first;
    expect(await second).toBe('first');
    expect(order).toEqual(['first commits', 'second locks']);
  });

  it('on PostgreSQL refuses to run outside a transaction, where the lock would hold nothing', async () => {
    await expect(lockRow(engines.postgres, 'issue', 1)).rejects.toThrow(/outside a transaction/);
  });
});
