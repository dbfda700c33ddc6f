import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config/schema';
import { openDatabase } from '../db/connect';
import { acquirePidLock, PidLockHeldError, type PidLock } from '../lib/pid-lock';
import { pidFileOf } from '../server';
import { parseDuration } from '../services/cron/duration';
import { CliError, existingInstanceConfig, withCommonOptions, type CommonOptions } from './options';

type DoctorOptions = CommonOptions & { fix?: boolean };

/** The name of this run's orphan directory: 20261125T021500Z. */
const stampOf = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/**
 * --fix takes the server's lock on the data directory: moving directories and rewriting rows
 * while a server creates repositories could set aside one it is making.
 */
function lockForFix(config: Config): PidLock {
  try {
    return acquirePidLock(pidFileOf(config));
  } catch (err) {
    if (err instanceof PidLockHeldError) throw new CliError(`--fix: ${err.message}`);
    throw err;
  }
}

async function runDoctorCommand(opts: DoctorOptions): Promise<void> {
  // Checking must never bring a fresh database into being (openDatabase would create the file).
  const config = existingInstanceConfig(opts);
  const lock = opts.fix ? lockForFix(config) : null;
  const db = openDatabase({
    file: config.database.path, busyTimeout: config.database.busy_timeout, cacheDir: path.join(config.server.data_dir, 'cache'),
  });
  try {
    // The checks load for this command only, not with every start of the server.
    const { formatResult, healthy, runDoctor } = await import('../services/doctor/doctor');
    const results = await runDoctor(db, {
      config,
      fix: Boolean(opts.fix),
      // The repo_health_check cron task's limit; Gitea's default git timeout otherwise.
      fsckTimeoutMs: parseDuration(config.cron.repo_health_check?.timeout ?? '360s'),
      stamp: stampOf(new Date()),
      signal: new AbortController().signal,
    }, (r) => { for (const line of formatResult(r)) console.log(line); });
    if (!healthy(results)) process.exitCode = 1;
  } finally {
    await db.destroy();
    lock?.release();
  }
}

export function doctorCommand(program: Command): void {
  withCommonOptions(program.command('doctor')
    .description('check the database, repositories and stored files; --fix repairs what is safe (with the server stopped)'))
    .option('--fix', 'repair what is safe: branch rows, counters, orphan directories (moved aside, never deleted)')
    .action(runDoctorCommand);
}
