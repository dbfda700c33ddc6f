import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually } from './wait';
import type { Auth, TestServer } from './server';

// Helpers for the repository registries' tests (debian, rpm, arch, alpine, ...): uploads of raw
// bodies, waiting for the index job, and running a real client with its output kept.

export const run = promisify(execFile);

/** Runs a client; resolves with its exit code and output, never throws. */
export async function client(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}): Promise<{ code: number; out: string }> {
  try {
    const r = await run(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, timeout: opts.timeout ?? 120_000, maxBuffer: 32 << 20 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string; message?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message ?? ''}` };
  }
}

export const hasCommand = (cmd: string) => {
  try { execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }); return true; } catch { return false; }
};

/** PUT of a raw body. */
export const putBody = (s: TestServer, path: string, body: Buffer | Uint8Array, auth: Auth, headers: Record<string, string> = {}) =>
  s.request(path, { method: 'PUT', body: body as unknown as Blob, auth, headers });

/** Waits until a GET of `path` answers 200 and `check` accepts its body; returns the body. */
export async function waitForFile(s: TestServer, path: string, check: (body: Buffer) => boolean = () => true, auth?: Auth, ms = 20_000): Promise<Buffer> {
  let body = Buffer.alloc(0);
  await eventually(async () => {
    const res = await s.request(path, { auth });
    if (res.status !== 200) return false;
    body = Buffer.from(await res.arrayBuffer());
    return check(body);
  }, ms, `${path} built`);
  return body;
}

/** Waits until no package index job is waiting or running. */
export async function indexJobsDone(s: TestServer, ms = 20_000): Promise<void> {
  await eventually(async () => {
    const row = await s.hearth.db.selectFrom('job').select('id').where('kind', 'like', 'packages.index.%').where('state', 'in', ['pending', 'running']).executeTakeFirst();
    return !row;
  }, ms, 'index jobs done');
}
