import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import { tempDatabase } from '../helpers/database';
import { sqliteOnlySuite } from '../helpers/test-database';

// Regression: SQLite ends a transaction by itself after some errors (a full disk, an I/O error,
// a trigger's RAISE(ROLLBACK)); Kysely's ROLLBACK then failed with "cannot rollback - no
// transaction is active", which replaced the error that said what happened (a full disk was
// reported as an internal error).

let db: DB;
let close: () => Promise<void>;

// SQLite only: PostgreSQL never ends a transaction behind the client's back (an error leaves it
// aborted until the client's ROLLBACK), and it has no RAISE(ROLLBACK).
sqliteOnlySuite('a transaction SQLite rolled back itself', () => {
  beforeAll(async () => {
    ({ db, close } = await tempDatabase());
    await sql`CREATE TABLE t (v TEXT)`.execute(db);
    await sql`CREATE TRIGGER t_full BEFORE INSERT ON t WHEN new.v = 'full' BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END`.execute(db);
  });
  afterAll(async () => { await close(); });

  it('fails with SQLite\'s own error, and the connection goes on', async () => {
    const write = (v: string) => db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('before')`.execute(trx);
      await sql`INSERT INTO t (v) VALUES (${v})`.execute(trx);
    });
    await expect(write('full')).rejects.toThrow('database or disk is full');
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db)).rows[0]!.n).toBe(0);
    await write('fine');
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db)).rows[0]!.n).toBe(2);
  });
});
