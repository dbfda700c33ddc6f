import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { processDatabaseEnv, runHearth, startHearthProcess, type HearthProcess } from './process';
import { basicHeader, ok } from './server';
import { eventually } from './wait';

// Crash tests: hearth in its own process, told to kill itself with SIGKILL at a crash point
// (HEARTH_TEST_CRASH_AT, src/lib/crash-point.ts) as a power loss would stop it, then started
// again on the same data directory to see what the recovery made of it.

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** A temporary directory removed after the file's tests. */
export function crashTmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export type CrashCall = (p: string, method?: string, json?: unknown, auth?: string) => Promise<Response>;
export type Crashable = HearthProcess & { call: CrashCall; password: string };

const passwords = new Map<string, string>();
// Each data directory's database in the PostgreSQL pass (nothing on SQLite: it is in the directory).
const databases = new Map<string, Record<string, string>>();

/** The environment that points hearth at `data`'s database (made on first use). */
export async function crashEnv(data: string): Promise<Record<string, string>> {
  if (!databases.has(data)) databases.set(data, await processDatabaseEnv());
  return databases.get(data)!;
}

/** A hearth command over `data` and its database. */
export async function runOn(data: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return runHearth([...args, '--data', data], await crashEnv(data));
}

/**
 * hearth web over `data`, set to die at `crashAt` when given. The first start on a data directory
 * reads root's password from the output and clears its must-change flag; later starts reuse it.
 * `call` sends JSON as root (or with `auth`, an Authorization header).
 */
export async function startCrashable(data: string, crashAt?: string, env: Record<string, string> = {}): Promise<Crashable> {
  const server = await startHearthProcess(data, { ...(await crashEnv(data)), ...env, ...(crashAt ? { HEARTH_TEST_CRASH_AT: crashAt } : {}) });
  const first = !passwords.has(data);
  if (first) {
    await eventually(async () => /password:\s+\S+/.test(server.out()), 10_000, 'first admin printed');
    passwords.set(data, /password:\s+(\S+)/.exec(server.out())![1]!);
  }
  const password = passwords.get(data)!;
  const call: CrashCall = (p, method = 'GET', json, auth) => fetch(`${server.url}/api/v1/${p}`, {
    method, headers: { Authorization: auth ?? basicHeader('root', password), 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (first) await ok(await call('admin/users/root', 'PATCH', { login_name: 'root', source_id: 0, must_change_password: false }));
  return { ...server, call, password };
}

/** The request a crash point cuts short: no answer comes (an answer means the point was never reached), the process dies. */
export async function killedBy(server: HearthProcess, request: Promise<unknown>): Promise<void> {
  const answered = await request.then(() => true, () => false);
  expect(answered, 'the request answered: the crash point was not reached').toBe(false);
  expect(await server.exited).not.toBe(0);
}

/** A clean stop (exit 0), then `hearth doctor` over the data directory finds nothing wrong. */
export async function stopAndDoctor(server: HearthProcess, data: string): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const doctor = await runOn(data, ['doctor']);
  expect(doctor.code, doctor.out + doctor.err).toBe(0);
}
