import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestServer } from './server';

const run = promisify(execFile);

/** Runs the real git CLI asynchronously (the server answers from this same process). */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd, maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir(),
      GIT_AUTHOR_NAME: 'Tester', GIT_AUTHOR_EMAIL: 'tester@example.com',
      GIT_COMMITTER_NAME: 'Tester', GIT_COMMITTER_EMAIL: 'tester@example.com',
    },
  });
  return stdout;
}

/** As git() but resolves with the exit code and both outputs instead of throwing. */
export async function gitTry(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const stdout = await git(cwd, ...args);
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Clone URL with credentials embedded (empty user: anonymous). */
export function remoteUrl(s: TestServer, owner: string, repo: string, user?: string, password?: string): string {
  const u = new URL(`${owner}/${repo}.git`, s.hearth.config.server.root_url);
  if (user) {
    u.username = encodeURIComponent(user);
    u.password = encodeURIComponent(password ?? '');
  }
  return u.toString();
}

export function tempDir(prefix = 'hearth-git-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A local work tree with `files` committed on `branch`, ready to push. */
export async function workTree(files: Record<string, string>, branch = 'main'): Promise<string> {
  const dir = tempDir('hearth-wt-');
  await git(dir, 'init', '-q', '-b', branch);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** Creates a repository through the API as `user` and returns its JSON. */
export async function createRepo(
  s: TestServer, user: { username: string; password: string }, name: string, extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const res = await s.request('api/v1/user/repos', {
    method: 'POST', auth: { basic: [user.username, user.password] }, json: { name, ...extra },
  });
  if (res.status !== 201) throw new Error(`create repo ${name}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
