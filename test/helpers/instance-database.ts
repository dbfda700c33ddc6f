import path from 'node:path';
import { openDatabase, type DB } from '../../src/db/connect';

// The database of an instance a test runs `hearth` processes over, opened in the test itself to
// read or change rows behind the CLI's back: the data directory's hearth.db on SQLite, the
// database processDatabaseEnv() gave it in the PostgreSQL pass. Queries go through Kysely, so
// one test reads either engine.

/** Opens the database of the instance at `dataDir` run with `env` (processDatabaseEnv()'s); destroy() it after. */
export async function openInstanceDatabase(dataDir: string, env: Record<string, string>): Promise<DB> {
  const url = env.HEARTH__DATABASE__URL;
  if (env.HEARTH__DATABASE__DRIVER === 'postgres' && url) {
    const { openPostgres } = await import('../../src/db/postgres/connect');
    return openPostgres({ url, poolSize: 1 });
  }
  return openDatabase({ file: path.join(dataDir, 'hearth.db'), busyTimeout: 5000, cacheDir: path.join(dataDir, 'cache') });
}

/** Runs `fn` on the instance's database, closing it after. */
export async function withInstanceDatabase<T>(dataDir: string, env: Record<string, string>, fn: (db: DB) => Promise<T>): Promise<T> {
  const db = await openInstanceDatabase(dataDir, env);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}
