import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import { tempDatabase } from '../helpers/database';

// The upkeep of a database that a server keeps open for months.

let db: DB;
let close: () => Promise<void>;
beforeEach(async () => { ({ db, close } = await tempDatabase()); });
afterEach(async () => { await close(); });

describe('SQLite upkeep', () => {
  it('cuts the WAL back to 64 MB after checkpoints', async () => {
    const { rows } = await sql<{ journal_size_limit: number }>`PRAGMA journal_size_limit`.execute(db);
    expect(rows[0]!.journal_size_limit).toBe(64 * 1024 * 1024);
  });
});
