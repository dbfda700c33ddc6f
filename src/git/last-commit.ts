import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { git, gitEnv } from './exec';
import { cachedAtCommit } from './at-commit-cache';

// The last commit that touched each of a set of paths, found with ONE `git log` walk that
// stops as soon as every path has its answer (a directory listing costs one process, not one
// per entry).

export type LastCommit = { sha: string; authorDate: string; committerDate: string };

const RS = '\x1e';
const FORMAT = `--format=${RS}%H%x00%aI%x00%cI`;
// Paths are file names, never pathspec magic.
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

type Walk = {
  /** Called for each file a commit changed, newest commit first. */
  onFile: (file: string, c: LastCommit) => void;
  /** Checked after each chunk of output: true ends the walk. */
  done: () => boolean;
};

type Walking = { finished: Promise<void>; /** Re-checks `done` now (stops git if so). */ check: () => void };

/** Streams `git log --name-only` from `commit` limited to `spec`, stopping git once done. */
function walkLog(dir: string, commit: string, spec: string[], walk: Walk): Walking {
  const args = ['log', FORMAT, '--name-only', '-z', '--no-renames', commit, '--', ...spec];
  const child = spawn('git', args, { env: gitEnv({ gitDir: dir, env: LITERAL }), stdio: ['ignore', 'pipe', 'ignore'] });
  const decoder = new StringDecoder('utf8');
  let current: LastCommit | null = null;
  let pending = '';
  // Output: `RS sha NUL adate NUL cdate NUL`, then `\n` and the changed files, NUL-separated.
  const take = (token: string) => {
    const rs = token.indexOf(RS);
    if (rs >= 0) {
      current = { sha: token.slice(rs + 1), authorDate: '', committerDate: '' };
      return;
    }
    const t = token.replace(/^\n+/, '');
    if (!current || !t) return;
    if (!current.authorDate) current.authorDate = t;
    else if (!current.committerDate) current.committerDate = t;
    else walk.onFile(t, current);
  };
  const check = () => { if (child.exitCode === null && walk.done()) child.kill('SIGKILL'); };
  const finished = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      const parts = (pending + decoder.write(b)).split('\0');
      pending = parts.pop() ?? '';
      for (const p of parts) take(p);
      check();
    });
    child.on('error', reject);
    child.on('close', () => {
      if (pending) take(pending);
      resolve();
    });
  });
  return { finished, check };
}

/**
 * Last commits of the entries of the directory `scope` ('' for the root): a changed file
 * counts for its first segment below `scope`. The walk starts before the entry names are
 * known (`entries` settles while git already runs) and ends once each has its answer.
 */
export async function lastCommitsInListing(dir: string, commit: string, scope: string, entries: Promise<string[]>): Promise<Map<string, LastCommit>> {
  const found = new Map<string, LastCommit>();
  let wanted: Set<string> | null = null;
  let hits = 0; // wanted entries found so far
  const prefix = scope ? `${scope}/` : '';
  const walking = walkLog(dir, commit, scope ? [scope] : [], {
    onFile: (file, c) => {
      const rest = file.slice(prefix.length);
      const slash = rest.indexOf('/');
      const entry = prefix + (slash < 0 ? rest : rest.slice(0, slash));
      if (found.has(entry)) return;
      found.set(entry, c);
      if (wanted?.has(entry)) hits++;
    },
    done: () => !!wanted && hits === wanted.size,
  });
  try {
    wanted = new Set(await entries);
  } finally {
    wanted ??= new Set();
    hits = [...wanted].filter((p) => found.has(p)).length;
    walking.check();
  }
  await walking.finished;
  return new Map([...wanted].flatMap((p) => (found.has(p) ? [[p, found.get(p)!] as const] : [])));
}

/** Last commits of unrelated paths (files or directories), with them as the pathspecs. */
export async function lastCommitsOfPaths(dir: string, commit: string, paths: string[]): Promise<Map<string, LastCommit>> {
  const wanted = new Set(paths);
  const found = new Map<string, LastCommit>();
  if (!wanted.size) return found;
  const ownerOf = (file: string) => {
    if (wanted.has(file)) return file;
    for (let i = file.lastIndexOf('/'); i > 0; i = file.lastIndexOf('/', i - 1)) {
      if (wanted.has(file.slice(0, i))) return file.slice(0, i);
    }
    return null;
  };
  await walkLog(dir, commit, [...wanted], {
    onFile: (file, c) => {
      const owner = ownerOf(file);
      if (owner && !found.has(owner)) found.set(owner, c);
    },
    done: () => found.size === wanted.size,
  }).finished;
  return found;
}

/** The last commit touching `path` ('' = the commit itself), or null when none does; kept at full commit ids. */
export const lastCommitOf = cachedAtCommit(4096, readLastCommit);

async function readLastCommit(dir: string, commit: string, path: string): Promise<LastCommit | null> {
  const args = ['log', '-1', '--format=%H%x00%aI%x00%cI', '--no-renames', commit, '--', ...(path ? [path] : [])];
  const out = (await git(args, { gitDir: dir, env: LITERAL })).trim();
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
