import type { GitSigner, Signature } from './commit';
import { fastRebase } from './fast-rebase';
import { isAncestor } from './refs';
import { commitsToReplay, commitWithParents, mergeCommits, mergeWithBase } from './merge';

// The commit each merge style puts on the base branch, built in the bare repository.
// Conflicts come back as paths; nothing here moves a ref.

export type StyleInput = {
  dir: string; base: string; head: string; committer: Signature;
  /** Merge and squash commits: title + body. */
  message: string;
  /** Squash commits carry the pull request author. */
  author: Signature;
  /** Signs every commit written. */
  signer?: GitSigner | null;
};
export type StyleResult = { ok: true; commit: string } | { ok: false; conflicts: string[]; diverged?: boolean };

/** A merge commit with the base and the head as parents. */
export async function mergeStyle(i: StyleInput): Promise<StyleResult> {
  const m = await mergeCommits(i.dir, i.base, i.head);
  if (m.conflicts.length) return { ok: false, conflicts: m.conflicts };
  return { ok: true, commit: await commitWithParents(i.dir, { tree: m.tree, parents: [i.base, i.head], message: i.message, author: i.committer, committer: i.committer, signer: i.signer }) };
}

/** One commit on the base holding the whole change. */
export async function squashStyle(i: StyleInput): Promise<StyleResult> {
  const m = await mergeCommits(i.dir, i.base, i.head);
  if (m.conflicts.length) return { ok: false, conflicts: m.conflicts };
  return { ok: true, commit: await commitWithParents(i.dir, { tree: m.tree, parents: [i.base], message: i.message, author: i.author, committer: i.committer, signer: i.signer }) };
}

/**
 * Replays base..head (merges dropped, as `git rebase`) on the base, keeping authors; a head
 * already on top of the base stays as it is.
 */
export async function rebaseStyle(i: StyleInput): Promise<StyleResult> {
  if (await isAncestor(i.dir, i.base, i.head)) return { ok: true, commit: i.head };
  const commits = await commitsToReplay(i.dir, i.base, i.head);
  const linear = commits.filter((c) => c.parents.length === 1);
  // fast-import cannot sign: signed rebases take the commit-tree path.
  if (linear.length === commits.length && commits.length && !i.signer) {
    const fast = await fastRebase(i.dir, i.base, i.head, commits, i.committer);
    if (fast) return { ok: true, commit: fast };
  }
  let tip = i.base;
  for (const c of commits) {
    if (c.parents.length !== 1) continue;
    const m = await mergeWithBase(i.dir, c.parents[0]!, tip, c.sha);
    if (m.conflicts.length) return { ok: false, conflicts: m.conflicts };
    tip = await commitWithParents(i.dir, {
      tree: m.tree, parents: [tip], message: c.message,
      author: { name: c.authorName, email: c.authorEmail, raw: c.authorDate }, committer: i.committer, signer: i.signer,
    });
  }
  return { ok: true, commit: tip };
}

/** Rebase, then a merge commit of the rebased head (always a merge commit, as --no-ff). */
export async function rebaseMergeStyle(i: StyleInput): Promise<StyleResult> {
  const rebased = await rebaseStyle(i);
  if (!rebased.ok) return rebased;
  return mergeStyle({ ...i, head: rebased.commit });
}

/** The head itself, when it descends from the base. */
export async function fastForwardStyle(i: StyleInput): Promise<StyleResult> {
  if (!(await isAncestor(i.dir, i.base, i.head))) return { ok: false, conflicts: [], diverged: true };
  return { ok: true, commit: i.head };
}

export const MERGE_STYLES = {
  merge: mergeStyle, squash: squashStyle, rebase: rebaseStyle, 'rebase-merge': rebaseMergeStyle, 'fast-forward-only': fastForwardStyle,
} as const;
export type BuiltStyle = keyof typeof MERGE_STYLES;
