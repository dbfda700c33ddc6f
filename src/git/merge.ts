import { git, gitRun, GitError } from './exec';
import { commitTreeArgs, type GitSigner, type Signature } from './commit';

// Merges without a work tree: `git merge-tree --write-tree` in the bare repository. git 2.39
// has no `--merge-base`, so a merge against a chosen base (a cherry-pick) goes through two
// throwaway commits whose only common ancestor carries the base tree.

export type MergeResult = { tree: string; conflicts: string[] };

let mergeBaseFlag: boolean | undefined;

async function supportsMergeBase(): Promise<boolean> {
  if (mergeBaseFlag === undefined) {
    const r = await gitRun(['merge-tree', '-h']);
    mergeBaseFlag = /--merge-base/.test(r.stdout.toString() + r.stderr);
  }
  return mergeBaseFlag;
}

/** Three-way merge of two commits (their merge base found by git); conflicts listed by path. */
export async function mergeCommits(dir: string, ours: string, theirs: string, base?: string): Promise<MergeResult> {
  const args = ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', '--allow-unrelated-histories'];
  if (base) args.push(`--merge-base=${base}`);
  const r = await gitRun([...args, ours, theirs], { gitDir: dir });
  if (r.code === 129 && /write-tree/.test(r.stderr)) {
    // git before 2.38 prints its usage: say what is missing instead of a bare exit status.
    throw new GitError(['merge-tree'], r.code, 'this git has no `merge-tree --write-tree`: hearth needs git 2.38 or newer for merges');
  }
  if (r.code !== 0 && r.code !== 1) throw new GitError(['merge-tree'], r.code, r.stderr);
  const [tree, ...rest] = r.stdout.toString('utf8').split('\0');
  const conflicts = r.code === 1 ? [...new Set(rest.filter(Boolean))] : [];
  return { tree: tree!.trim(), conflicts };
}

// A fixed date keeps the throwaway commits identical across runs (git refuses the epoch itself).
const FIXED: Signature = { name: 'hearth', email: 'hearth@localhost', date: new Date(1_000_000_000_000) };

async function synthetic(dir: string, tree: string, parent: string | null): Promise<string> {
  return commitWithParents(dir, { tree, parents: parent ? [parent] : [], message: 'tmp', author: FIXED, committer: FIXED });
}

/** Merges `theirs` into `ours` as if `base` were their merge base (a cherry-pick of base..theirs). */
export async function mergeWithBase(dir: string, base: string, ours: string, theirs: string): Promise<MergeResult> {
  if (await supportsMergeBase()) return mergeCommits(dir, ours, theirs, base);
  const root = await synthetic(dir, `${base}^{tree}`, null);
  const o = await synthetic(dir, `${ours}^{tree}`, root);
  const t = await synthetic(dir, `${theirs}^{tree}`, root);
  return mergeCommits(dir, o, t);
}

const dateOf = (s: Signature) => (s.date ? `${Math.floor(s.date.getTime() / 1000)} +0000` : undefined);

/** `git commit-tree` with any number of parents; author dates may carry their original offset. */
export async function commitWithParents(
  dir: string,
  input: { tree: string; parents: string[]; message: string; author: Signature & { raw?: string }; committer: Signature; signer?: GitSigner | null },
): Promise<string> {
  const env: Record<string, string> = {
    ...input.signer?.env,
    GIT_AUTHOR_NAME: input.author.name, GIT_AUTHOR_EMAIL: input.author.email,
    GIT_COMMITTER_NAME: input.committer.name, GIT_COMMITTER_EMAIL: input.committer.email,
  };
  const ad = input.author.raw ?? dateOf(input.author);
  const cd = dateOf(input.committer);
  if (ad) env.GIT_AUTHOR_DATE = ad;
  if (cd) env.GIT_COMMITTER_DATE = cd;
  const args = commitTreeArgs(input.tree, input.parents, input.signer);
  const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
  return (await git(args, { gitDir: dir, env, input: message })).trim();
}

export type RawCommit = { sha: string; parents: string[]; authorName: string; authorEmail: string; authorDate: string; message: string };

/** Commits of base..head, oldest first (the order a rebase replays them). */
export async function commitsToReplay(dir: string, base: string, head: string): Promise<RawCommit[]> {
  const out = await git(['log', '--reverse', '--format=%H%x00%P%x00%an%x00%ae%x00%ad%x00%B%x1e', '--date=raw', `${base}..${head}`], { gitDir: dir });
  return out.split('\x1e').map((s) => s.replace(/^\n/, '')).filter(Boolean).map((s) => {
    const [sha, parents, an, ae, ad, message] = s.split('\0') as [string, string, string, string, string, string];
    return { sha, parents: parents ? parents.split(' ') : [], authorName: an, authorEmail: ae, authorDate: ad, message };
  });
}

/** Line counts and file count of `base...head` (Gitea's GetDiffShortStat). */
export async function diffShortStat(dir: string, base: string, head: string): Promise<{ additions: number; deletions: number; files: number }> {
  const out = await git(['diff', '--numstat', '-z', '--no-renames', base, head], { gitDir: dir });
  let additions = 0; let deletions = 0; let files = 0;
  for (const t of out.split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(t.replace(/^\n/, ''));
    if (!m) continue;
    files++;
    additions += Number(m[1]) || 0;
    deletions += Number(m[2]) || 0;
  }
  return { additions, deletions, files };
}

/**
 * `blob`: the file's blob at the head (at the base for a deleted file), which the "Viewed" mark
 * keeps; `oldBlob` and `newBlob` are each side's (zeros where the side has no file).
 */
export type PullFile = { filename: string; previous: string; status: string; additions: number; deletions: number; blob: string; oldBlob: string; newBlob: string };

const STATUS: Record<string, string> = { A: 'added', D: 'deleted', R: 'renamed', C: 'copied' };

/** Gitea's whitespace query values as git diff options. */
export const WHITESPACE_FLAGS: Record<string, string[]> = {
  'ignore-all': ['-w'], 'ignore-change': ['-b'], 'ignore-eol': ['--ignore-space-at-eol'], 'show-all': [],
};

/** Files changed between two commits with their line counts, renames detected (as Gitea's diff). */
export async function diffFiles(dir: string, base: string, head: string, whitespace: string[] = []): Promise<PullFile[]> {
  const [raw, num] = await Promise.all([
    git(['diff', '--raw', '--no-abbrev', '-z', '-M', base, head], { gitDir: dir }),
    git(['diff', '--numstat', '-z', '-M', ...whitespace, base, head], { gitDir: dir }),
  ]);
  const files: PullFile[] = [];
  const t = raw.split('\0');
  for (let i = 0; i + 1 < t.length;) {
    const meta = t[i]!.replace(/^\n/, '');
    if (!meta.startsWith(':')) break;
    const code = meta.split(' ').pop()!.charAt(0);
    const paired = code === 'R' || code === 'C';
    const [, , oldBlob, newBlob] = meta.split(' ');
    files.push({
      filename: t[paired ? i + 2 : i + 1]!, previous: paired ? t[i + 1]! : '', status: STATUS[code] ?? 'changed', additions: 0, deletions: 0,
      blob: (code === 'D' ? oldBlob : newBlob) ?? '', oldBlob: oldBlob ?? '', newBlob: newBlob ?? '',
    });
    i += paired ? 3 : 2;
  }
  const byName = new Map(files.map((f) => [f.filename, f]));
  // numstat -z: "add\tdel\tpath\0", or for a rename "add\tdel\t\0old\0new\0".
  const n = num.split('\0');
  for (let i = 0; i < n.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(n[i]!.replace(/^\n/, ''));
    if (!m) continue;
    const name = m[3] ? m[3] : n[(i += 2)];
    const f = name ? byName.get(name) : undefined;
    if (f) { f.additions = Number(m[1]) || 0; f.deletions = Number(m[2]) || 0; }
  }
  return files;
}

/** The diff of one path between two commits (review comments cut their hunk from it). */
export async function filePatch(dir: string, base: string, head: string, path: string): Promise<string> {
  return git(['diff', '-M', '--no-color', base, head, '--', path], { gitDir: dir });
}
