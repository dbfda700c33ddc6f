import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, type DB } from '../../src/db/connect';
import { createLogger } from '../../src/lib/logger';
import { createTestPostgresDatabase } from './test-database';

/**
 * A migrated database in a temp directory, for service tests below HTTP; with
 * HEARTH_TEST_DB=postgres a PostgreSQL database cloned from the run's template (`file` is then '').
 */
export async function tempDatabase(): Promise<{ db: DB; file: string; close: () => Promise<void> }> {
  const pg = await createTestPostgresDatabase();
  if (pg) {
    const { openPostgres } = await import('../../src/db/postgres/connect');
    const db = await openPostgres({ url: pg.url, poolSize: 4 });
    await migrate(db);
    return { db, file: '', close: async () => { await db.destroy(); await pg.drop(); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-db-'));
  const file = path.join(dir, 'hearth.db');
  const db = openDatabase({ file, busyTimeout: 5000, cacheDir: path.join(dir, 'cache') });
  await migrate(db);
  return { db, file, close: async () => { await db.destroy(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** A logger that keeps quiet (tests assert on state, not on log lines). */
export const quietLog = () => createLogger('silent');
