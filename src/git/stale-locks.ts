import fs from 'node:fs';
import path from 'node:path';

// git takes a lock by creating `<file>.lock` and renames it into place when done. A git killed
// with SIGKILL (hearth killed with its children, the OOM killer, a push whose client went away)
// leaves the lock behind, and every later update of that ref fails ("cannot lock ref ... File
// exists": 409 on merges and API commits, refused pushes) until someone removes it. git holds
// a ref lock for milliseconds: a lock older than this process, or than an hour, is debris.

const TOP_LEVEL = ['HEAD.lock', 'config.lock', 'packed-refs.lock', 'index.lock', 'shallow.lock', 'FETCH_HEAD.lock'];

/** The lock files of a bare repository: its top-level ones and any under refs/. */
export function lockFilesOf(repoDir: string): string[] {
  const out = TOP_LEVEL.map((n) => path.join(repoDir, n)).filter((f) => fs.existsSync(f));
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.lock')) out.push(p);
    }
  };
  walk(path.join(repoDir, 'refs'));
  return out;
}

/** A lock older than this is debris whatever runs: git holds a ref lock for milliseconds. */
export const STALE_LOCK_MS = 3_600_000;

/** The lock files of a repository last changed before `before` (ms since the epoch). */
export function staleLocksOf(repoDir: string, before: number): string[] {
  return lockFilesOf(repoDir).filter((file) => {
    try {
      return fs.statSync(file).mtimeMs < before;
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Removes the lock files last changed before `before`; returns them. */
export function removeStaleLocks(repoDir: string, before: number): string[] {
  const stale = staleLocksOf(repoDir, before);
  for (const file of stale) fs.rmSync(file, { force: true });
  return stale;
}
