import { git, gitRun } from './exec';
import { streamGit, type GitStream } from './stream';

// The diffs and counts the web pages show: one git process gives both the list of changed
// files (`--raw -z`: exact paths, full blob ids) and their patches, with git's whitespace
// options; and how far two commits have diverged.

export type Whitespace = 'show-all' | 'ignore-all' | 'ignore-change' | 'ignore-eol';

const WHITESPACE: Record<Whitespace, string[]> = {
  'show-all': [], 'ignore-all': ['-w'], 'ignore-change': ['-b'], 'ignore-eol': ['--ignore-space-at-eol'],
};

export const isWhitespace = (s: unknown): s is Whitespace => typeof s === 'string' && s in WHITESPACE;

/**
 * `git diff --raw -p -z` from `from` to `to` (resolved ids; `from` null: a root commit against
 * nothing), renames found, optionally limited to paths. The raw records come first, then the patch.
 */
export function streamRawAndPatch(dir: string, from: string | null, to: string, ws: Whitespace, paths: string[] = []): GitStream {
  const common = ['--raw', '-p', '-z', '--no-abbrev', '--full-index', '-M', '--no-color', '--no-ext-diff', ...WHITESPACE[ws]];
  const args = from ? ['diff', ...common, from, to, '--', ...paths] : ['show', '--format=', ...common, to, '--', ...paths];
  return streamGit(dir, args, { GIT_LITERAL_PATHSPECS: '1' });
}

/** Commits `head` has that `base` lacks (ahead), and the reverse (behind). */
export async function divergence(dir: string, base: string, head: string): Promise<{ ahead: number; behind: number }> {
  if (base === head) return { ahead: 0, behind: 0 };
  const out = await git(['rev-list', '--left-right', '--count', `${base}...${head}`, '--'], { gitDir: dir });
  const [behind, ahead] = out.trim().split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

/** Whether the object exists in the repository (a deleted branch's commit, before gc). */
export async function hasCommit(dir: string, sha: string): Promise<boolean> {
  const r = await gitRun(['cat-file', '-e', `${sha}^{commit}`], { gitDir: dir });
  return r.code === 0;
}

/** Sizes of blobs by id, in one `git cat-file --batch-check`; unknown ids are left out. */
export async function blobSizes(dir: string, shas: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(shas)];
  const out = new Map<string, number>();
  if (!unique.length) return out;
  const text = await git(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { gitDir: dir, input: `${unique.join('\n')}\n` });
  for (const line of text.split('\n')) {
    const [sha, type, size] = line.split(' ');
    if (type === 'blob') out.set(sha!, Number(size));
  }
  return out;
}
