import path from 'node:path';
import type { Command } from 'commander';
import { acquirePidLock, PidLockHeldError, type PidLock } from '../lib/pid-lock';
import { pidFileOf } from '../server';
import { CliError, existingInstanceConfig, withCommonOptions, type CommonOptions } from './options';

// `hearth admin db copy --to postgres://...`: the instance's SQLite database into an empty
// PostgreSQL database. The copy module (and `pg`) load when the command runs, never at a start.

type CopyOptions = CommonOptions & { to?: string };

function takeLock(file: string): PidLock {
  try {
    return acquirePidLock(file);
  } catch (err) {
    if (err instanceof PidLockHeldError) throw new CliError(`db copy reads the database with the server stopped: ${err.message}`);
    throw err;
  }
}

async function copyCommand(opts: CopyOptions): Promise<void> {
  const url = opts.to ?? '';
  if (!/^postgres(ql)?:\/\//.test(url)) throw new CliError('--to: a PostgreSQL URL (postgres://user:password@host/database)');
  const config = existingInstanceConfig(opts);
  const lock = takeLock(pidFileOf(config));
  const { DatabaseConnectError, openDatabase, pendingMigrations } = await import('../db/connect');
  const { copyDatabase, CopyRefusedError } = await import('../db/postgres/copy');
  const { openPostgres } = await import('../db/postgres/connect');
  // One connection: the copy is one transaction. Its failure to connect is one line, password left out.
  const target = await openPostgres({ url, poolSize: 1 }).catch((err: unknown) => {
    lock.release();
    throw err instanceof DatabaseConnectError ? new CliError(`db copy: ${err.message}`) : err;
  });
  const source = openDatabase({ file: config.database.path, busyTimeout: config.database.busy_timeout, cacheDir: path.join(config.server.data_dir, 'cache') });
  try {
    if ((await pendingMigrations(source)).length) {
      throw new CliError(`the database at ${config.database.path} has pending migrations: run 'hearth migrate' first`);
    }
    const r = await copyDatabase(source, target, (line) => console.log(line));
    const rows = r.tables.reduce((n, t) => n + t.rows, 0);
    if (r.skipped.length) console.log(`skipped (SQLite only; PostgreSQL's trigram indexes build themselves): ${r.skipped.join(', ')}`);
    console.log(`copied ${r.tables.length} tables, ${rows} rows`);
    console.log('next: set [database] driver = "postgres" and url (HEARTH__DATABASE__URL), then start hearth');
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof CopyRefusedError) throw new CliError(`db copy: ${err.message}`);
    // The URL (and its password) stays out of the message: pg's own text names the cause.
    throw new CliError(`db copy failed: ${(err as Error).message}`);
  } finally {
    await source.destroy();
    await target.destroy().catch(() => {});
    lock.release();
  }
}

export function dbAdminCommands(admin: Command): void {
  const db = admin.command('db').description('database administration');
  withCommonOptions(db.command('copy').description('copy this instance\'s SQLite database into an empty PostgreSQL database (server stopped)'))
    .requiredOption('--to <url>', 'the PostgreSQL database: postgres://user:password@host[:port]/database')
    .action(copyCommand);
}
