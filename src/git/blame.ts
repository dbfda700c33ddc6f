import { gitRun, GitError } from './exec';

// `git blame --porcelain`: which commit last changed each line of a file, read in one process
// and grouped into runs of consecutive lines from the same commit (the blame page's rows).

export type BlameCommit = {
  sha: string; authorName: string; authorEmail: string;
  /** Unix seconds. */
  authorTime: number;
  summary: string;
  /** The commit before this one that had the file, for "blame prior to this change". */
  previous: { sha: string; path: string } | null;
};
export type BlameHunk = { commit: BlameCommit; start: number; lines: string[] };

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) \d+ (\d+)(?: \d+)?$/;

/** Reads the porcelain output: a header per line, the commit's fields the first time it is named. */
export function parseBlame(text: string): BlameHunk[] {
  const commits = new Map<string, BlameCommit>();
  const hunks: BlameHunk[] = [];
  let current: BlameCommit | null = null;
  let line = 0;
  for (const row of text.split('\n')) {
    if (row.startsWith('\t')) {
      if (!current) continue;
      const last = hunks[hunks.length - 1];
      if (last && last.commit === current && last.start + last.lines.length === line) last.lines.push(row.slice(1));
      else hunks.push({ commit: current, start: line, lines: [row.slice(1)] });
      continue;
    }
    const head = HEADER.exec(row);
    if (head) {
      const sha = head[1]!;
      line = Number(head[2]);
      current = commits.get(sha) ?? { sha, authorName: '', authorEmail: '', authorTime: 0, summary: '', previous: null };
      commits.set(sha, current);
      continue;
    }
    if (!current) continue;
    const space = row.indexOf(' ');
    const key = space < 0 ? row : row.slice(0, space);
    const value = space < 0 ? '' : row.slice(space + 1);
    if (key === 'author') current.authorName = value;
    else if (key === 'author-mail') current.authorEmail = value.replace(/^<|>$/g, '');
    else if (key === 'author-time') current.authorTime = Number(value) || 0;
    else if (key === 'summary') current.summary = value;
    else if (key === 'previous') {
      const gap = value.indexOf(' ');
      current.previous = { sha: value.slice(0, gap), path: value.slice(gap + 1) };
    }
  }
  return hunks;
}

/** The blame of `path` at `commit` (a resolved id); null when the path is no file there. */
export async function blameFile(dir: string, commit: string, path: string): Promise<BlameHunk[] | null> {
  const args = ['blame', '--porcelain', '--no-progress', commit, '--', path];
  const r = await gitRun(args, { gitDir: dir });
  if (r.code !== 0) {
    if (/no such path|no such ref|bad revision/i.test(r.stderr)) return null;
    throw new GitError(args, r.code, r.stderr);
  }
  return parseBlame(r.stdout.toString('utf8'));
}
