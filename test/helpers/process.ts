import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';
import { createTestPostgresDatabase, type TestPostgresDatabase } from './test-database';
import { eventually } from './wait';

// hearth in a process of its own: from source through tsx, or the built single executable when
// HEARTH_EXECUTABLE names one (CI runs test/exe/ that way after `npm run build`).

const root = path.resolve(__dirname, '../..');
const executable = process.env.HEARTH_EXECUTABLE ? path.resolve(root, process.env.HEARTH_EXECUTABLE) : undefined;

// From source, one Node process with tsx's loader (as `npm start`): the tsx command would run
// hearth in a child of its own and relay signals to it, and under load it turns one SIGINT into
// two, then a SIGKILL when the child does not answer within 30 ms.
const tsxLoader = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** The command line that runs hearth with `args`. */
export function hearthCommand(args: string[]): [string, string[]] {
  return executable ? [executable, args] : [process.execPath, ['--import', tsxLoader, path.join(root, 'src/main.ts'), ...args]];
}

export const runsExecutable = executable !== undefined;

const children: ChildProcess[] = [];
/** SIGKILL to the whole process group: the server's own children (git, workers) go with it. */
export const killHard = (c: ChildProcess) => { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } };
afterAll(() => { for (const c of children) killHard(c); });

const databases: TestPostgresDatabase[] = [];
afterAll(async () => { for (const d of databases.splice(0)) await d.drop(); });

/**
 * The environment that points a hearth process and the commands run over the same data directory
 * at the run's engine: nothing on SQLite (the database lives in the data directory), a fresh
 * database cloned from the template in the PostgreSQL pass (`empty`: one with no schema yet),
 * dropped after the file's tests.
 */
export async function processDatabaseEnv(opts: { empty?: boolean } = {}): Promise<Record<string, string>> {
  const pg = await createTestPostgresDatabase(opts);
  if (!pg) return {};
  databases.push(pg);
  return { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: pg.url };
}

export type HearthProcess = { child: ChildProcess; url: string; out: () => string; exited: Promise<number | null> };

/**
 * `hearth web` over `dataDir` on a port the kernel picks (a fixed random one could be taken by
 * another test's socket), the URL read from its log. Fails at once, with the server's output,
 * if it exits before listening.
 */
export async function startHearthProcess(dataDir: string, env: Record<string, string> = {}): Promise<HearthProcess> {
  const [cmd, args] = hearthCommand(['web', '--port', '0', '--data', dataDir]);
  const child = spawn(cmd, args, {
    env: { ...process.env, HEARTH__LOG__LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  children.push(child);
  let out = '';
  let code: number | null | undefined;
  child.stdout!.on('data', (b) => { out += b; });
  child.stderr!.on('data', (b) => { out += b; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c, signal) => { code = c ?? (signal ? -1 : null); resolve(c); }));
  const listening = () => /"url":"(http:[^"]+)"/.exec(out)?.[1];
  await eventually(async () => {
    if (code !== undefined) throw new Error(`hearth exited (${code}) before listening:\n${out}`);
    return listening() !== undefined;
  }, 60_000, 'hearth up');
  return { child, url: listening()!.replace(/\/$/, ''), out: () => out, exited };
}

/** Runs a hearth command to completion, blocking: for commands that end on their own. */
export function runHearthSync(args: string[], env: Record<string, string> = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(...hearthCommand(args), { encoding: 'utf8', env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Runs a hearth command to completion. */
export function runHearth(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const [cmd, argv] = hearthCommand(args);
    const child = spawn(cmd, argv, { env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', ...env }, detached: true });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => { out += b; });
    child.stderr.on('data', (b) => { err += b; });
    child.once('close', (code) => resolve({ code, out, err }));
  });
}
