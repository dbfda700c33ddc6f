import fs from 'node:fs';
import path from 'node:path';
import { git, remoteUrl, tempDir } from './git';
import { as, ok, type TestServer } from './server';

// A work tree cloned from a repository of the test server, for pushing pull request branches.

/** Who pushes: any user's name and password (the kit's Creds fit). */
export type Creds = Pick<import('./gitea-fixtures').Creds, 'username' | 'password'>;

export { as, ok };

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
