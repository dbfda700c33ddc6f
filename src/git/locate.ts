import fs from 'node:fs';
import path from 'node:path';

// hearth runs the system git for every repository: without it the server would start and then
// answer 500 to most requests. The start looks it up and stops with one line instead, as Gitea's
// does. A lookup on PATH, not `git --version`: a child process spawned during the start added
// ~10 MB to the resident memory a start leaves.

export class GitUnusableError extends Error {}

/** The git executable spawn('git') will run; GitUnusableError when PATH has none. */
export function locateGit(searchPath = process.env.PATH ?? ''): string {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, 'git');
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch { /* not here */ }
  }
  throw new GitUnusableError('git is not installed or not on PATH (hearth runs the system git for repositories; git 2.38 or newer)');
}
