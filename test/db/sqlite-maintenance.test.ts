import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import { tempDatabase } from '../helpers/database';
import { sqliteOnlySuite } from '../helpers/test-database';

// The upkeep of a database that a server keeps open for months.

let db: DB;
let close: () => Promise<void>;

// SQLite only: the WAL and its pragmas are SQLite's; PostgreSQL's server keeps its own.
sqliteOnlySuite('SQLite upkeep', () => {
  beforeEach(async () => { ({ db, close } = await tempDatabase()); });
  afterEach(async () => { await close(); });

  it('cuts the WAL back to 64 MB after checkpoints', async () => {
    const { rows } = await sql<{ journal_size_limit: number }>`PRAGMA journal_size_limit`.execute(db);
    expect(rows[0]!.journal_size_limit).toBe(64 * 1024 * 1024);
  });
});
