import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { git, remoteUrl, tempDir } from './git';
import type { Auth, TestServer } from './server';

// A work tree cloned from a repository of the test server, for pushing pull request branches.

export type Creds = { username: string; password: string };

export const as = (u: Creds): Auth => ({ basic: [u.username, u.password] });

/** Reads a response, asserting its status; JSON bodies parsed, others as text. */
export async function ok(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

export async function commitFile(dir: string, file: string, content: string): Promise<string> {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', `change ${file}`);
  return (await git(dir, 'rev-parse', 'HEAD')).trim();
}

export type Work = {
  dir: string;
  /** Pushes a branch off the remote main with `files` committed one by one; the last commit id. */
  branch: (name: string, files: Record<string, string>) => Promise<string>;
  /** Commits one more file on an existing branch and pushes it; the commit id. */
  pushTo: (name: string, file: string, content: string) => Promise<string>;
};

export async function cloneWork(s: TestServer, owner: string, repo: string, who: Creds): Promise<Work> {
  const dir = path.join(tempDir(), 'w');
  await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, owner, repo, who.username, who.password), 'w');
  return {
    dir,
    branch: async (name, files) => {
      await git(dir, 'fetch', '-q', 'origin');
      await git(dir, 'checkout', '-q', '-B', name, 'origin/main');
      let sha = '';
      for (const [f, c] of Object.entries(files)) sha = await commitFile(dir, f, c);
      await git(dir, 'push', '-q', 'origin', `${name}:${name}`);
      return sha;
    },
    pushTo: async (name, file, content) => {
      await git(dir, 'checkout', '-q', name);
      const sha = await commitFile(dir, file, content);
      await git(dir, 'push', '-q', 'origin', `${name}:${name}`);
      return sha;
    },
  };
}
