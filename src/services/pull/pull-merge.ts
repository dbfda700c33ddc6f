import type { DB } from '../../db/connect';
import type { Issue, PullRequest, User } from '../../db/schema';
import { MERGE_STYLES, type BuiltStyle } from '../../git/merge-styles';
import { isAncestor } from '../../git/refs';
import { revParse } from '../../git/repo';
import { ConflictError, InvalidError, NotAllowedError, NotFoundError } from '../../lib/errors';
import { getUserById } from '../../models/user';
import { canWrite } from '../issue/issue-access';
import { checkMergeProtection } from './pull-protection';
import { markMerged } from './pull-state';
import { dirOfRepo } from './pull-git';
import { headRepoAccess, landMerge } from './pull-merge-land';
import { loadPull } from './pull-views';
import { settingsOf } from '../repo/repo-settings';
import type { RepoAccess } from '../repo/repos';
import { withRefsLock } from '../repo/refs-lock';
import { finishLeftRefMoves } from '../recovery/left-ref-moves';
import { signMerge } from '../signing/sign-rules';
import type { Hearth } from '../../hearth';

export const MERGE_DO = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'] as const;
export type MergeDo = (typeof MERGE_DO)[number];

export type MergeInput = {
  Do: MergeDo; MergeTitleField?: string; MergeMessageField?: string; MergeCommitID?: string;
  delete_branch_after_merge?: boolean; force_merge?: boolean; head_commit_id?: string; merge_when_checks_succeed?: boolean;
};

const notAllowed = (msg: string) => new NotAllowedError(msg);
const WIP = ['wip:', '[wip]'];

/** Gitea's IsMergeStyleAllowed over the repository's allow_* switches. */
export function styleAllowed(access: RepoAccess, style: MergeDo): boolean {
  const s = settingsOf(access.repo);
  const allowed: Record<MergeDo, boolean> = {
    merge: s.allow_merge_commits, rebase: s.allow_rebase, 'rebase-merge': s.allow_rebase_explicit,
    squash: s.allow_squash_merge, 'fast-forward-only': s.allow_fast_forward_only_merge, 'manually-merged': s.allow_manual_merge,
  };
  return allowed[style];
}

/** A title starting "WIP:" or "[WIP]" marks a draft, which does not merge (Gitea's work-in-progress prefixes). */
export const isWip = (title: string): boolean => WIP.some((p) => title.toLowerCase().startsWith(p));

/** The merge commit's message: the given title and body, else Gitea's defaults for the style. */
export function defaultMergeMessage(input: Pick<MergeInput, 'Do' | 'MergeTitleField' | 'MergeMessageField'>, issue: Issue, pr: PullRequest, headLabel: string): string {
  const title = input.MergeTitleField?.trim() || (input.Do === 'squash'
    ? `${issue.title} (#${issue.index})`
    : `Merge pull request '${issue.title}' (#${issue.index}) from ${headLabel} into ${pr.base_branch}`);
  const body = input.MergeMessageField?.trim();
  return body ? `${title}\n\n${body}\n` : `${title}\n`;
}

/** Gitea's CheckPullMergeable, in its order: who, state, style, draft, staleness. */
export async function checkPreconditions(h: Hearth, access: RepoAccess, doer: User, index: number, input: MergeInput) {
  const loaded = await loadPull(h, access, doer, index);
  const { issue, pr } = loaded;
  if (!canWrite(loaded.ctx, true)) throw notAllowed('User not allowed to merge PR');
  if (pr.has_merged) throw notAllowed('The PR is already merged');
  if (issue.is_closed) throw new NotFoundError('the pull request is closed');
  if (!styleAllowed(access, input.Do)) throw notAllowed(`merge style ${input.Do} is not allowed`);
  if (isWip(issue.title)) throw notAllowed('Work in progress PRs cannot be merged');
  if (input.head_commit_id && input.head_commit_id !== pr.head_commit_id) {
    throw new ConflictError('head out of date: the head commit of the pull request has changed');
  }
  return loaded;
}

/**
 * POST /repos/{owner}/{repo}/pulls/{index}/merge (merge_when_checks_succeed is pull-auto-merge's).
 * Merges and API commits into one repository queue: a second merge then sees the first (already
 * merged: 405; a moved base: merged on top) instead of losing the race for the ref.
 */
export function mergePull(
  h: Hearth, access: RepoAccess, doer: User, index: number, input: MergeInput, opts: { auto?: boolean } = {},
): Promise<void> {
  return withRefsLock(access.repo.id, () => mergeNow(h, access, doer, index, input, opts));
}

async function mergeNow(
  h: Hearth, access: RepoAccess, doer: User, index: number, input: MergeInput, opts: { auto?: boolean },
): Promise<void> {
  await finishLeftRefMoves(h, access.repo);
  const { issue, pr } = await checkPreconditions(h, access, doer, index, input);
  await checkMergeProtection(h, access, doer, pr, input.force_merge === true);
  const dir = await dirOfRepo(h, access.repo);
  if (input.Do === 'manually-merged') return manuallyMerged(h, access, doer, issue, pr, dir, input.MergeCommitID ?? '');
  if (pr.status === 'conflict') throw new ConflictError('merge had a conflict');
  const baseSha = await revParse(dir, `refs/heads/${pr.base_branch}`);
  if (!baseSha) throw new NotFoundError(`base branch does not exist [name: ${pr.base_branch}]`);
  const headLabel = pr.head_repo_id === pr.base_repo_id ? pr.head_branch : `${(await headRepoAccess(h.db, pr, doer))?.owner.name ?? ''}:${pr.head_branch}`;
  const now = new Date();
  const committer = { name: doer.full_name || doer.name, email: doer.email || `${doer.lower_name}@noreply.localhost`, date: now };
  const poster = issue.poster_id === doer.id ? doer : null;
  // Signed by the instance key; the doer stays the committer, as Gitea under its default
  // ("collaborator") trust model, which is the only one hearth has.
  const signer = input.Do === 'fast-forward-only' ? null : await signMerge(h, doer, pr, dir, baseSha, pr.head_commit_id);
  const built = await MERGE_STYLES[input.Do as BuiltStyle]({
    dir, base: baseSha, head: pr.head_commit_id, message: defaultMergeMessage(input, issue, pr, headLabel), committer, signer,
    author: poster ? committer : await posterSignature(h.db, issue, committer),
  });
  if (!built.ok) {
    if (built.diverged) throw notAllowed('Diverging fast-forward-only merge: the head does not descend from the base');
    throw new ConflictError(`merge had a conflict: ${built.conflicts.join(', ')}`);
  }
  await landMerge(h, access.repo, doer, issue, pr, dir, {
    repoId: access.repo.id, issueId: issue.id, index: issue.index, baseBranch: pr.base_branch, oldSha: baseSha, commit: built.commit,
    doerId: doer.id, auto: opts.auto === true,
    deleteBranch: input.delete_branch_after_merge ?? settingsOf(access.repo).default_delete_branch_after_merge,
  });
}

async function posterSignature(db: DB, issue: Issue, fallback: { name: string; email: string; date: Date }) {
  const u = await getUserById(db, issue.poster_id);
  return u ? { name: u.full_name || u.name, email: u.email || `${u.lower_name}@noreply.localhost`, date: fallback.date } : fallback;
}

/** Gitea's MergedManually: the given commit must be on the base branch. */
async function manuallyMerged(h: Hearth, access: RepoAccess, doer: User, issue: Issue, pr: PullRequest, dir: string, commitId: string): Promise<void> {
  const baseSha = await revParse(dir, `refs/heads/${pr.base_branch}`);
  const commit = /^[0-9a-f]{4,64}$/i.test(commitId) ? await revParse(dir, `${commitId}^{commit}`) : null;
  if (!commit || !baseSha || !(await isAncestor(dir, commit, baseSha))) throw new InvalidError('Wrong commit ID', 'MergeCommitID');
  await markMerged(h.db, { repoId: access.repo.id, doer, issue, pr, commit });
}

/** GET /repos/{owner}/{repo}/pulls/{index}/merge: whether it is merged (404 otherwise). */
export async function assertMerged(h: Hearth, access: RepoAccess, doer: User | null, index: number): Promise<void> {
  const { pr } = await loadPull(h, access, doer, index, false);
  if (!pr.has_merged) throw new NotFoundError('pull request is not merged');
}
