import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { git, remoteUrl, tempDir } from './git';
import type { TestServer } from './server';

const run = promisify(execFile);

// Building histories with chosen authors and dates for the commits and git data tests.

/** Clones `owner/repo` with credentials into a fresh work tree. */
export async function cloneRepo(s: TestServer, user: { username: string; password: string }, owner: string, repo: string): Promise<string> {
  const dir = tempDir('hearth-clone-');
  await git(dir, 'clone', '-q', remoteUrl(s, owner, repo, user.username, user.password), '.');
  return dir;
}

export type CommitSpec = {
  files?: Record<string, string | Buffer | null>;
  message: string;
  /** `Name <email>`; the committer is always Tester <tester@example.com>. */
  author?: string;
  /** Author and committer time (unix seconds), rendered with a +02:00 offset. */
  unix: number;
};

/** Writes (or with null, deletes) files, then commits everything with the given identity and time. */
export async function commitFiles(dir: string, spec: CommitSpec): Promise<string> {
  for (const [name, content] of Object.entries(spec.files ?? {})) {
    const file = path.join(dir, name);
    if (content === null) fs.rmSync(file, { force: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
  await git(dir, 'add', '-A');
  const date = `${spec.unix} +0200`;
  await run('git', ['commit', '-q', '--allow-empty', '-m', spec.message, `--author=${spec.author ?? 'Tester <tester@example.com>'}`], {
    cwd: dir,
    env: {
      ...process.env, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_COMMITTER_NAME: 'Tester', GIT_COMMITTER_EMAIL: 'tester@example.com',
    },
  });
  return (await git(dir, 'rev-parse', 'HEAD')).trim();
}

/** Removes `null` fields (Gitea sends them; the reference does not mark them nullable) before shape checks. */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
    return out as T;
  }
  return value;
}
