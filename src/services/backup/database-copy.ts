import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../../config/schema';
import { loadSqliteAddon } from '../../lib/native-sqlite';

const open = (config: Config, file: string, readonly: boolean) => {
  const nativeBinding = loadSqliteAddon(path.join(config.server.data_dir, 'cache'));
  return new SQLite(file, { fileMustExist: true, readonly, ...(nativeBinding ? { nativeBinding: nativeBinding as unknown as string } : {}) });
};

/**
 * A consistent copy of the live database through SQLite's online backup API. After the first
 * step the rest is copied in one step: one read transaction, so a busy server (WAL: its writers
 * are not blocked) cannot make the backup restart again and again, as small steps would.
 */
export async function backupDatabase(config: Config, to: string): Promise<void> {
  const db = open(config, config.database.path, false);
  try {
    db.pragma(`busy_timeout = ${Math.trunc(config.database.busy_timeout)}`);
    await db.backup(to, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

export type CopyFacts = { migrations: string[]; repos: { owner: string; name: string }[] };

/**
 * What the copy holds: the migrations applied and every repository with its owner. The copy is
 * switched out of WAL first, so the archive holds one self-contained file.
 */
export function readCopyFacts(config: Config, file: string): CopyFacts {
  const db = open(config, file, false);
  try {
    db.pragma('journal_mode = DELETE');
    const migrations = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
    const repos = db.prepare('SELECT u.lower_name AS owner, r.lower_name AS name FROM repository r JOIN "user" u ON u.id = r.owner_id ORDER BY r.id')
      .all() as { owner: string; name: string }[];
    return { migrations, repos };
  } finally {
    db.close();
  }
}
