import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config/schema';
import { migrate, openDatabase, type DB } from './db/connect';
import { createLogger, type Logger } from './lib/logger';
import { makeDirectory } from './lib/pid-lock';

/** What every layer above lib needs: the configuration, the database and the logger. */
export type Hearth = { config: Config; db: DB; log: Logger; secret: string };

/** Opens (and migrates) the database, creating the data directory and the secret on first start. */
export async function openHearth(config: Config, log = createLogger(config.log)): Promise<Hearth> {
  // Not mkdirSync({ recursive }): it never returns for a path under /proc (seen in the CLI tests).
  makeDirectory(config.server.data_dir);
  makeDirectory(config.repository.root);
  const db = openDatabase({
    file: config.database.path,
    busyTimeout: config.database.busy_timeout,
    cacheDir: path.join(config.server.data_dir, 'cache'),
  });
  try {
    const applied = await migrate(db);
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { config, db, log, secret: config.security.secret_key || loadOrCreateSecret(config.server.data_dir) };
}

function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

export async function closeHearth(h: Hearth): Promise<void> {
  await h.db.destroy();
}
