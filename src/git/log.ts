import { git, gitRun } from './exec';

// Commit history read in one `git log` per request: the header fields of every commit and,
// when asked, its changed files (--raw) and line counts (--numstat) in the same stream.

export type Person = { name: string; email: string; /** strict ISO 8601 with the original offset */ date: string };
export type FileStatus = 'added' | 'removed' | 'modified';
export type ChangedFile = { filename: string; status: FileStatus };

export type LogCommit = {
  sha: string;
  tree: string;
  parents: string[];
  author: Person;
  committer: Person;
  message: string;
  /** Present when files were asked for. */
  files?: ChangedFile[];
  /** Present when stats were asked for. */
  stats?: { additions: number; deletions: number };
};

export type DiffWanted = { files: boolean; stat: boolean };

export type LogQuery = DiffWanted & {
  /** Revision arguments, already resolved to object ids (never user text that could be an option). */
  revs: string[];
  /** Commits reachable from these are left out (`--not`). */
  not?: string[];
  path?: string;
  since?: string;
  until?: string;
  skip?: number;
  limit?: number;
};

const FORMAT = '%x1e%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00';
const HEADER_FIELDS = 10;

// Gitea's statuses: a type change or copy is a modification; merges are diffed against
// their first parent, as Gitea computes a merge's stats.
const STATUS: Record<string, FileStatus> = { A: 'added', D: 'removed', M: 'modified', T: 'modified' };

function diffArgs(want: DiffWanted): string[] {
  if (!want.files && !want.stat) return [];
  return [
    ...(want.files ? ['--raw'] : []), ...(want.stat ? ['--numstat'] : []),
    '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--diff-merges=first-parent',
  ];
}

function filterArgs(q: Pick<LogQuery, 'since' | 'until'>): string[] {
  return [...(q.since ? [`--since=${q.since}`] : []), ...(q.until ? [`--until=${q.until}`] : [])];
}

const pathArgs = (path?: string) => (path ? ['--', path] : ['--']);
/** A path filter is a file name, never pathspec magic such as `:(exclude)`. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

/** Commits of a range in `git log` order (newest first), with files and stats when asked. */
export async function logCommits(dir: string, q: LogQuery): Promise<LogCommit[]> {
  const args = [
    'log', `--format=${FORMAT}`, ...diffArgs(q), ...filterArgs(q),
    ...(q.skip ? [`--skip=${q.skip}`] : []), ...(q.limit !== undefined ? [`--max-count=${q.limit}`] : []),
    ...q.revs, ...(q.not?.length ? ['--not', ...q.not] : []), ...pathArgs(q.path),
  ];
  return parseLog(await git(args, { gitDir: dir, env: LITERAL }), q);
}

/** The given commits, in the given order (`--no-walk=unsorted`). */
export async function readCommits(dir: string, ids: string[], want: DiffWanted): Promise<LogCommit[]> {
  if (!ids.length) return [];
  const args = ['log', '--no-walk=unsorted', `--format=${FORMAT}`, ...diffArgs(want), '--stdin'];
  return parseLog(await git(args, { gitDir: dir, input: `${ids.join('\n')}\n` }), want);
}

/** `git rev-list --count`: the size of the same range logCommits pages through. */
export async function countCommits(dir: string, q: Omit<LogQuery, 'files' | 'stat' | 'skip' | 'limit'>): Promise<number> {
  const args = ['rev-list', '--count', ...filterArgs(q), ...q.revs, ...(q.not?.length ? ['--not', ...q.not] : []), ...pathArgs(q.path)];
  return Number((await git(args, { gitDir: dir, env: LITERAL })).trim()) || 0;
}

function parseLog(text: string, want: DiffWanted): LogCommit[] {
  const tokens = text.split('\0');
  const commits: LogCommit[] = [];
  let i = 0;
  while (i < tokens.length) {
    const start = tokens[i]!.replace(/^\n+/, '');
    if (!start.startsWith('\x1e')) { i++; continue; }
    const f = tokens.slice(i, i + HEADER_FIELDS);
    i += HEADER_FIELDS;
    const c = headerOf(start.slice(1), f);
    if (want.files) c.files = [];
    if (want.stat) c.stats = { additions: 0, deletions: 0 };
    i = readDiff(tokens, i, c);
    commits.push(c);
  }
  return commits;
}

function headerOf(sha: string, f: string[]): LogCommit {
  const [, tree, parents, an, ae, ad, cn, ce, cd, message] = f as [string, string, string, string, string, string, string, string, string, string];
  return {
    sha, tree, parents: parents ? parents.split(' ') : [], message,
    author: { name: an, email: ae, date: ad }, committer: { name: cn, email: ce, date: cd },
  };
}

/** Consumes --raw (`:modes ids STATUS`, then the path) and --numstat (`add\tdel\tpath`) tokens. */
function readDiff(tokens: string[], from: number, c: LogCommit): number {
  let i = from;
  while (i < tokens.length) {
    const t = tokens[i]!.replace(/^\n+/, '');
    if (t.startsWith('\x1e')) break;
    i++;
    if (t.startsWith(':')) {
      const path = tokens[i++] ?? '';
      const status = STATUS[t.slice(t.lastIndexOf(' ') + 1).charAt(0)];
      if (status && c.files) c.files.push({ filename: path, status });
      continue;
    }
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(t);
    if (m && c.stats) {
      c.stats.additions += Number(m[1]) || 0;
      c.stats.deletions += Number(m[2]) || 0;
    }
  }
  return i;
}

/** Whether `rev` names a commit; returns its full id, or null. Never treats input as an option. */
export async function resolveCommit(dir: string, rev: string): Promise<string | null> {
  if (!rev || rev.startsWith('-')) return null;
  const r = await gitRun(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString().trim() || null : null;
}

/** The merge base of two commits, or null for unrelated histories. */
export async function mergeBase(dir: string, a: string, b: string): Promise<string | null> {
  const r = await gitRun(['merge-base', a, b], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString().trim() || null : null;
}
