import { git, gitRun, GitError } from './exec';
import type { Signature } from './commit';
import type { RefUpdate } from './hooks';

// Branch and tag plumbing for bare repositories: names, ancestry, listing and creation.

/** `git check-ref-format --branch`: a name git accepts for a branch, exactly as given. */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (!name || name.startsWith('-') || name.includes('@{')) return false;
  const r = await gitRun(['check-ref-format', '--branch', name]);
  return r.code === 0 && r.stdout.toString().trim() === name;
}

/** A name git accepts under refs/tags. */
export async function isValidTagName(name: string): Promise<boolean> {
  if (!name || name.startsWith('-')) return false;
  const r = await gitRun(['check-ref-format', `refs/tags/${name}`]);
  return r.code === 0;
}

/** Whether `ancestor` is reachable from `descendant` (not a force push). `env` sees quarantined objects. */
export async function isAncestor(dir: string, ancestor: string, descendant: string, env: Record<string, string> = {}): Promise<boolean> {
  const r = await gitRun(['merge-base', '--is-ancestor', ancestor, descendant], { gitDir: dir, env });
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new GitError(['merge-base'], r.code, r.stderr);
}

/** Paths that differ between two commits. */
export async function changedFiles(dir: string, from: string, to: string, env: Record<string, string> = {}): Promise<string[]> {
  const out = await git(['diff', '--name-only', '-z', '--no-renames', from, to, '--'], { gitDir: dir, env });
  return out.split('\0').filter(Boolean);
}

/** Every branch and tag ref name (full `refs/...`). */
export async function listRefNames(dir: string): Promise<string[]> {
  const out = await git(['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags'], { gitDir: dir });
  return out.split('\n').filter(Boolean);
}

export type CommitInfo = {
  sha: string; message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
};

const COMMIT_FORMAT = '%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00%x1e';

/** Author, committer and full message of each commit, by id. */
export async function commitInfos(dir: string, ids: string[]): Promise<Map<string, CommitInfo>> {
  const out = new Map<string, CommitInfo>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const text = await git(['log', '--no-walk=unsorted', `--format=${COMMIT_FORMAT}`, '--stdin'], { gitDir: dir, input: `${unique.join('\n')}\n` });
  for (const record of text.split('\x1e')) {
    const f = record.replace(/^\n/, '').split('\0');
    if (f.length < 8) continue;
    const [sha, an, ae, ad, cn, ce, cd, message] = f as [string, string, string, string, string, string, string, string];
    out.set(sha, { sha, message, author: { name: an, email: ae, date: ad }, committer: { name: cn, email: ce, date: cd } });
  }
  return out;
}

export type TagInfo = {
  name: string;
  /** The ref's object: the tag object of an annotated tag, else the commit. */
  id: string;
  /** The commit the tag points at. */
  commit: string;
  annotated: boolean;
  message: string;
  /** Tagger date of an annotated tag, else the commit's committer date (unix seconds). */
  unix: number;
};

const TAG_FORMAT = '%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)%00%(creatordate:unix)%00%(contents)%1e';

function parseTags(text: string): TagInfo[] {
  const tags: TagInfo[] = [];
  for (const record of text.split('\x1e')) {
    const f = record.replace(/^\n/, '').split('\0');
    if (f.length < 6 || !f[0]!.startsWith('refs/tags/')) continue;
    const [ref, id, type, peeled, unix, message] = f as [string, string, string, string, string, string];
    const annotated = type === 'tag';
    tags.push({ name: ref.slice('refs/tags/'.length), id, commit: annotated ? peeled : id, annotated, message, unix: Number(unix) || 0 });
  }
  return tags;
}

/** Tags, newest first (as Gitea lists them). */
export async function listTags(dir: string): Promise<TagInfo[]> {
  const text = await git(['for-each-ref', '--sort=-creatordate', `--format=${TAG_FORMAT}`, 'refs/tags'], { gitDir: dir });
  return parseTags(text);
}

export async function getTag(dir: string, name: string): Promise<TagInfo | null> {
  const text = await git(['for-each-ref', `--format=${TAG_FORMAT}`, `refs/tags/${name}`], { gitDir: dir });
  return parseTags(text).find((t) => t.name === name) ?? null;
}

/** An annotated tag object for `commit`, its ref created only if absent (false when it exists). */
export async function createAnnotatedTag(dir: string, name: string, commit: string, message: string, tagger: Signature): Promise<boolean> {
  const env = { GIT_COMMITTER_NAME: tagger.name, GIT_COMMITTER_EMAIL: tagger.email };
  const r = await gitRun(['tag', '-a', '-F', '-', '--', name, commit], { gitDir: dir, env, input: message });
  if (r.code === 0) return true;
  if (/already exists/.test(r.stderr)) return false;
  throw new GitError(['tag'], r.code, r.stderr);
}

/** `git branch -m`: renames the ref (and HEAD when it points at it). */
export async function renameBranchRef(dir: string, from: string, to: string): Promise<void> {
  await git(['branch', '-m', '--', from, to], { gitDir: dir });
}

/** The object a ref points at, by its exact full name (no revision syntax), or null. */
export async function refTarget(dir: string, ref: string): Promise<string | null> {
  if (ref.startsWith('-')) return null;
  const r = await gitRun(['show-ref', '--verify', '--hash', ref], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString().trim() || null : null;
}

/** Every branch and pull request ref with the object it points at, in one git call. */
export async function branchAndPullTips(dir: string): Promise<Map<string, string>> {
  const r = await gitRun(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/pull'], { gitDir: dir });
  const tips = new Map<string, string>();
  if (r.code !== 0) return tips;
  for (const line of r.stdout.toString().split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) tips.set(line.slice(space + 1), line.slice(0, space));
  }
  return tips;
}

const isZero = (id: string) => /^0+$/.test(id);

/**
 * The updates of a git push that landed, as its own node syncs them after receive-pack or another
 * node adopts the intent of one that died. A push moves refs without the repository's refs lock
 * (merges and API commits hold it), so another move may have gone on from it meanwhile (a push, a
 * merge, an API commit on any node, even one under way now): an update that added commits landed
 * if its ref is at them or holds them under a later tip. A rewind (its commit was under the old
 * tip already) and a deletion count only as the ref is now: their commit proves nothing. Commits
 * of an update git refused stayed in its quarantine: no later tip holds them unless pushed again.
 * The later move may be announced first; each event still names its own before and after.
 */
export async function landedPushes(dir: string, updates: RefUpdate[]): Promise<RefUpdate[]> {
  const exact = new Set(await landedUpdates(dir, updates));
  const held = await Promise.all(updates.map(async (u) => {
    if (exact.has(u)) return true;
    if (isZero(u.newId)) return false;
    const rewind = !isZero(u.oldId) && (await isAncestor(dir, u.newId, u.oldId).catch(() => false));
    const tip = rewind ? null : await refTarget(dir, u.ref);
    return !!tip && (await isAncestor(dir, u.newId, tip).catch(() => false));
  }));
  return updates.filter((_, i) => held[i]);
}

/** The updates whose ref is exactly where they put it (or gone, for a deletion). */
export async function landedUpdates(dir: string, updates: RefUpdate[]): Promise<RefUpdate[]> {
  if (!updates.length) return [];
  const out = await git(['for-each-ref', '--format=%(objectname) %(refname)', ...updates.map((u) => u.ref)], { gitDir: dir });
  const now = new Map(out.split('\n').filter(Boolean).map((l) => [l.slice(l.indexOf(' ') + 1), l.slice(0, l.indexOf(' '))]));
  return updates.filter((u) => (/^0+$/.test(u.newId) ? !now.has(u.ref) : now.get(u.ref) === u.newId));
}
