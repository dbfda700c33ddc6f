import { spawn } from 'node:child_process';
import { git, gitEnv } from './exec';

// The last commit that touched each of a set of paths, found with ONE `git log` walk that
// stops as soon as every path has its answer (a directory listing costs one process, not one
// per entry).

export type LastCommit = { sha: string; authorDate: string; committerDate: string };

const RS = '\x1e';
const FORMAT = `--format=${RS}%H%x00%aI%x00%cI`;

/**
 * Which wanted path a changed file counts for: the path itself, or the directory holding it.
 * In a listing (`scope` not null) the entry is the file's first segment below `scope`.
 */
function ownerOf(wanted: Set<string>, file: string, scope: string | null): string | null {
  if (wanted.has(file)) return file;
  if (scope !== null) {
    const rest = scope ? file.slice(scope.length + 1) : file;
    const slash = rest.indexOf('/');
    const entry = (scope ? `${scope}/` : '') + (slash < 0 ? rest : rest.slice(0, slash));
    return wanted.has(entry) ? entry : null;
  }
  for (let i = file.lastIndexOf('/'); i > 0; i = file.lastIndexOf('/', i - 1)) {
    if (wanted.has(file.slice(0, i))) return file.slice(0, i);
  }
  return null;
}

/**
 * Last commits reachable from `commit` for `paths`. `scope` is the directory that holds all
 * of them when they are the entries of one listing ('' for the root), so git is told to look
 * only below it; otherwise (null) the paths themselves are the pathspecs.
 */
export function lastCommits(dir: string, commit: string, paths: string[], scope: string | null): Promise<Map<string, LastCommit>> {
  const wanted = new Set(paths);
  const found = new Map<string, LastCommit>();
  if (!wanted.size) return Promise.resolve(found);
  const spec = scope === null ? [...wanted] : scope ? [scope] : [];
  const args = ['log', FORMAT, '--name-only', '-z', '--no-renames', commit, '--', ...spec];
  const child = spawn('git', args, { env: gitEnv({ gitDir: dir, env: { GIT_LITERAL_PATHSPECS: '1' } }), stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let current: LastCommit | null = null;
    let pending = '';
    const take = (token: string) => {
      let t = token;
      const rs = t.indexOf(RS);
      if (rs >= 0) {
        // `RS sha NUL adate NUL cdate` then the changed files, NUL-separated.
        current = { sha: t.slice(rs + 1), authorDate: '', committerDate: '' };
        return;
      }
      t = t.replace(/^\n+/, '');
      if (!current || !t) return;
      if (!current.authorDate) { current.authorDate = t; return; }
      if (!current.committerDate) { current.committerDate = t; return; }
      const owner = ownerOf(wanted, t, scope);
      if (owner && !found.has(owner)) found.set(owner, current);
    };
    child.stdout.on('data', (b: Buffer) => {
      const parts = (pending + b.toString('utf8')).split('\0');
      pending = parts.pop() ?? '';
      for (const p of parts) take(p);
      if (found.size === wanted.size) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', () => {
      if (pending) take(pending);
      resolve(found);
    });
  });
}

/** The last commit touching `path` ('' = the commit itself), or null when none does. */
export async function lastCommitOf(dir: string, commit: string, path: string): Promise<LastCommit | null> {
  const args = ['log', '-1', '--format=%H%x00%aI%x00%cI', '--no-renames', commit, '--', ...(path ? [path] : [])];
  const out = (await git(args, { gitDir: dir, env: { GIT_LITERAL_PATHSPECS: '1' } })).trim();
  if (!out) return null;
  const [sha, authorDate, committerDate] = out.split('\0') as [string, string, string];
  return { sha, authorDate, committerDate };
}

export type CommitMeta = {
  sha: string; tree: string; parents: string[]; message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
};

/** Header fields and message of one commit, by id. */
export async function readCommitMeta(dir: string, sha: string): Promise<CommitMeta> {
  const out = await git(['log', '-1', '--no-walk', '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B', sha, '--'], { gitDir: dir });
  const [id, tree, parents, an, ae, ad, cn, ce, cd, ...message] = out.split('\0') as string[];
  return {
    sha: id!, tree: tree!, parents: parents ? parents.split(' ') : [], message: message.join('\0').replace(/\n$/, ''),
    author: { name: an!, email: ae!, date: ad! }, committer: { name: cn!, email: ce!, date: cd! },
  };
}
