import os from 'node:os';
import type { Command } from 'commander';
import type { Config } from '../config/schema';
import { openConfiguredDatabase, type DB } from '../db/connect';
import { isAlive, pidScope } from '../lib/local-process';
import { acquirePidLock, PidLockHeldError, type PidLock } from '../lib/pid-lock';
import { pidFileOf } from '../server';
import { parseDuration } from '../services/cron/duration';
import { CliError, existingInstanceConfig, withCommonOptions, type CommonOptions } from './options';

type DoctorOptions = CommonOptions & { fix?: boolean; list?: boolean; all?: boolean; run?: string[] };

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

/**
 * PostgreSQL: servers take no pid lock (nodes share the data directory), so the lock does not
 * tell whether one runs; the node table does. --fix waits until no node has a live heartbeat
 * (a node of this machine whose process is gone has none).
 */
async function refuseWhileNodesRun(config: Config, db: DB): Promise<void> {
  if (config.database.driver !== 'postgres') return;
  const [{ liveNodes, ranHereAndGone }, { nodeStaleMs }] = await Promise.all([import('../db/postgres/cluster'), import('../services/cluster/node')]);
  // A node that ran on this machine and whose process is gone (killed) is not running, whatever its heartbeat says.
  const me = { host: os.hostname(), pid: process.pid, pidScope: pidScope() };
  const live = (await liveNodes(db, nodeStaleMs({ config }))).filter((n) => !ranHereAndGone(n, me, isAlive));
  if (live.length) {
    const names = live.map((n) => `pid ${n.pid} on ${n.host}`).join(', ');
    throw new CliError(`--fix: hearth is running on this database (${names}): stop every node first`);
  }
}

/** The checks --run names (Gitea's `doctor check --run a,b`); every check without it. */
function selectedChecks(names: string[], opts: DoctorOptions): string[] | undefined {
  if (!opts.run?.length || opts.all) return undefined;
  const wanted = opts.run.flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean);
  const unknown = wanted.filter((w) => !names.includes(w));
  if (unknown.length) throw new CliError(`unknown check ${unknown.join(', ')}; the checks are: ${names.join(', ')}`);
  return wanted;
}

async function runDoctorCommand(action: string | undefined, opts: DoctorOptions): Promise<void> {
  // `hearth doctor check ...` as Gitea's `gitea doctor check ...`; plain `hearth doctor` alike.
  if (action !== undefined && action !== 'check') throw new CliError(`unknown doctor command '${action}' (try 'hearth doctor check')`);
  // The checks load for this command only, not with every start of the server.
  const { DOCTOR_CHECKS, formatResult, healthy, runDoctor } = await import('../services/doctor/doctor');
  const names = DOCTOR_CHECKS.map((c) => c.name);
  if (opts.list) {
    for (const name of names) console.log(name);
    return;
  }
  const only = selectedChecks(names, opts);
  // Checking must never bring a fresh database into being (openDatabase would create the file).
  const config = existingInstanceConfig(opts);
  const lock = opts.fix ? lockForFix(config) : null;
  const db = await openConfiguredDatabase(config);
  try {
    if (opts.fix) await refuseWhileNodesRun(config, db);
    const results = await runDoctor(db, {
      config,
      fix: Boolean(opts.fix),
      // The repo_health_check cron task's limit; Gitea's default git timeout otherwise.
      fsckTimeoutMs: parseDuration(config.cron.repo_health_check?.timeout ?? '360s'),
      stamp: stampOf(new Date()),
      signal: new AbortController().signal,
    }, (r) => { for (const line of formatResult(r)) console.log(line); }, only);
    if (!healthy(results)) process.exitCode = 1;
  } finally {
    await db.destroy();
    lock?.release();
  }
}

export function doctorCommand(program: Command): void {
  withCommonOptions(program.command('doctor')
    .description('check the database, repositories and stored files; --fix repairs what is safe (with the server stopped)')
    .argument('[check]', 'optional, as in Gitea\'s `doctor check`'))
    .option('--fix', 'repair what is safe: branch rows, counters, orphan directories (moved aside, never deleted)')
    .option('--list', 'list the checks and exit')
    .option('--run <checks...>', 'run only these checks (comma-separated or repeated)')
    .option('--all', 'run every check (the default)')
    .action(runDoctorCommand);
}
