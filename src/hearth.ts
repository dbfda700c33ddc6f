import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config/schema';
import { migrate, openConfiguredDatabase, pendingMigrations, type DB } from './db/connect';
import { createLogger, type Logger } from './lib/logger';
import { makeDirectory } from './lib/pid-lock';
import { maskUrlPassword } from './lib/url-password';

/** What every layer above lib needs: the configuration, the database and the logger. */
export type Hearth = { config: Config; db: DB; log: Logger; secret: string };

/** A command that does not migrate found a database older than this hearth. */
export class DatabaseOutdatedError extends Error {}

/**
 * Opens (and migrates) the database, creating the data directory and the secret on first start.
 * With `migrate: false` (the admin commands, as Gitea's CLI) an older database is refused
 * instead: migrating under a server of the previous version would change its schema.
 */
export async function openHearth(
  config: Config, log = createLogger(config.log), opts: { migrate?: boolean; migrated?: (applied: string[]) => void } = {},
): Promise<Hearth> {
  // Not mkdirSync({ recursive }): it never returns for a path under /proc (seen in the CLI tests).
  makeDirectory(config.server.data_dir);
  makeDirectory(config.repository.root);
  const db = await openConfiguredDatabase(config);
  try {
    if (opts.migrate === false) {
      const pending = await pendingMigrations(db);
      if (pending.length) {
        throw new DatabaseOutdatedError(`the database ${databaseName(config)} is older than this hearth `
          + `(${pending.length} migration${pending.length > 1 ? 's' : ''} pending): run 'hearth migrate' (or start 'hearth web') first`);
      }
    } else {
      const applied = await migrate(db);
      if (applied.length) log.info({ migrations: applied }, 'database migrated');
      opts.migrated?.(applied);
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { config, db, log, secret: config.security.secret_key || loadOrCreateSecret(config.server.data_dir) };
}

/** Where the database is, for messages: the SQLite file, or PostgreSQL's URL without its password. */
export const databaseName = (config: Config): string =>
  (config.database.driver === 'postgres' ? maskUrlPassword(config.database.url) : `at ${config.database.path}`);

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
