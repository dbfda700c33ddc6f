import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config/schema';
import { migrate, openConfiguredDatabase, pendingMigrations, type DB } from './db/connect';
import { createLogger, type Logger } from './lib/logger';
import { makeDirectory } from './lib/pid-lock';
import { openBlobStorage } from './lib/blob-storage/open';
import type { BlobStorage } from './lib/blob-storage/storage';
import { maskUrlPassword } from './lib/url-password';
import { eventBus, type EventBus } from './services/events/bus';
import { JobQueue } from './services/jobs/queue';
import { writeOnce } from './lib/place-once';

/**
 * The instance handle: what every layer above lib needs, passed to a service as its first
 * parameter instead of `db, config, secret, jobs` in varying orders.
 *
 * A service that runs inside its caller's transaction is handed `withDb(h, trx)`: the same
 * instance with the transaction as its `db`. That is how services compose in one transaction;
 * the bus and the queue stay the instance's (an event is still emitted after the commit, and a
 * job enqueued on `h.db` exists only if the transaction commits).
 */
export type Hearth = {
  config: Config;
  /** The database, or the transaction a caller runs this service in (withDb). */
  db: DB;
  log: Logger;
  /** The instance secret: the key of values sealed at rest (webhook secrets, mirror credentials). */
  secret: string;
  /** The durable job queue: its kinds register and its workers start in setUpBackground. Jobs are added with enqueueJob(h.db, ...). */
  jobs: JobQueue;
  /** The domain event bus: subscribers register in setUpBackground; services emit after their commit. */
  events: EventBus;
  /** This process's node id: its row of the node table on PostgreSQL, the owner of the job leases it takes. */
  nodeId: string;
  /** Package files, LFS objects, attachments and avatars: local disk or an S3-compatible bucket ([storage]). */
  blobs: BlobStorage;
};

/** The same instance with `db` (a transaction) as its database: how services compose inside one transaction. */
export function withDb(h: Hearth, db: DB): Hearth {
  return db === h.db ? h : { ...h, db };
}

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
    // After the check: a command refused for an older database (or, on PostgreSQL, one with no
    // tables yet) leaves nothing behind. Not mkdirSync({ recursive }): it never returns for a path
    // under /proc (seen in the CLI tests).
    makeDirectory(config.server.data_dir);
    makeDirectory(config.repository.root);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const nodeId = crypto.randomUUID();
  return {
    config, db, log, secret: config.security.secret_key || loadOrCreateSecret(config.server.data_dir),
    // Made here, started (if at all) by setUpBackground: a command that never starts the workers
    // still enqueues into the same table.
    jobs: new JobQueue(db, log, config.queue.workers, {
      nodeId, leaseMs: config.queue.lease * 1000, url: config.database.driver === 'postgres' ? config.database.url : undefined,
    }), events: eventBus(db), nodeId, blobs: await openBlobStorage(config),
  };
}

/** Where the database is, for messages: the SQLite file, or PostgreSQL's URL without its password. */
export const databaseName = (config: Config): string =>
  (config.database.driver === 'postgres' ? maskUrlPassword(config.database.url) : `at ${config.database.path}`);

/**
 * The instance key of the data directory, made on its first start. Written to a private file and
 * hard-linked into place, so the key file never exists half-written, and two nodes starting at
 * once on a shared data directory (PostgreSQL) both end up with the one that was linked first.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  if (!fs.existsSync(file)) writeOnce(file, `${crypto.randomBytes(32).toString('hex')}\n`, 0o600);
  return fs.readFileSync(file, 'utf8').trim();
}

export async function closeHearth(h: Hearth): Promise<void> {
  await h.blobs.close();
  await h.db.destroy();
}
