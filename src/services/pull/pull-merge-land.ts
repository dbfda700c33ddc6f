import type { DB } from '../../db/connect';
import type { Issue, PullRequest, Repository, User } from '../../db/schema';
import { updateRef } from '../../git/commit';
import { zeroId } from '../../git/repo';
import { crashPoint } from '../../lib/crash-point';
import { ConflictError } from '../../lib/errors';
import { getRepoById } from '../../models/repo';
import { clearIntent, recordIntent } from '../recovery/intent';
import { deleteBranch } from '../repo/branches';
import { refsMoved } from '../repo/refs-moved';
import { accessOf, type RepoAccess } from '../repo/repos';
import { markMerged } from './pull-state';
import type { Hearth } from '../../hearth';

// A merge is two steps: the base branch moves on disk, then the database records it (branch
// rows and the push event, the merged pull request). A kill in between left `main` merged and
// the pull request open, and a retry merged it a second time. So the move is preceded by a
// 'pull.merge' intent, which the transaction that marks the pull request merged removes; at
// the next start recovery/merge-recovery.ts finishes the bookkeeping from the same intent.

/** What recovery needs to finish a merge whose base moved (JSON in `pending_op`). */
export type MergeIntent = {
  repoId: number; issueId: number; index: number; baseBranch: string;
  oldSha: string; commit: string; doerId: number; auto: boolean; deleteBranch: boolean;
};

/** Moves the base branch to the built merge under a recorded intent, then records the merge. */
export async function landMerge(
  h: Hearth, repo: Repository, doer: User, issue: Issue, pr: PullRequest, dir: string, intent: MergeIntent,
): Promise<void> {
  const intentId = await recordIntent(h.db, 'pull.merge', intent);
  const nullId = zeroId(intent.oldSha.length === 64 ? 'sha256' : 'sha1');
  if (!(await updateRef(dir, `refs/heads/${intent.baseBranch}`, intent.commit, intent.oldSha, nullId))) {
    // Refused: nothing moved, nothing to recover.
    await clearIntent(h.db, intentId);
    throw new ConflictError('the base branch moved during the merge, try again');
  }
  crashPoint('merge.after-ref');
  await recordLanded(h, { repo, doer, issue, pr, dir }, intent, { intentId, synced: false });
}

type Landed = { repo: Repository; doer: User; issue: Issue; pr: PullRequest; dir: string };

/**
 * The database side of a merge whose base already moved: the merge itself and from recovery.
 * `synced` skips the refs bookkeeping a killed merge already did (its push event went out);
 * `intentId` is cleared with the merged mark (recovery's row is removed by recover.ts).
 */
export async function recordLanded(
  h: Hearth, landed: Landed, intent: MergeIntent, opts: { intentId?: number; synced: boolean },
): Promise<void> {
  const { repo, doer, issue, pr, dir } = landed;
  if (!opts.synced) {
    // As Gitea's merge push: the base branch moved (its new commits in the feed), then the merge itself.
    await refsMoved(h.db, repo, doer, dir, [{ ref: `refs/heads/${intent.baseBranch}`, oldId: intent.oldSha, newId: intent.commit }], 'merge');
  }
  crashPoint('merge.after-sync');
  const marked = await markMerged(h.db, { repoId: repo.id, doer, issue, pr, commit: intent.commit, auto: intent.auto, intentId: opts.intentId });
  if (marked && intent.deleteBranch) await deleteHead(h, pr, doer);
}

export async function headRepoAccess(db: DB, pr: PullRequest, doer: User): Promise<RepoAccess | null> {
  const repo = await getRepoById(db, pr.head_repo_id);
  return repo ? accessOf(db, repo, doer) : null;
}

/** delete_branch_after_merge: best effort (a protected or default branch stays). */
async function deleteHead(h: Hearth, pr: PullRequest, doer: User): Promise<void> {
  const head = await headRepoAccess(h.db, pr, doer);
  if (!head) return;
  await deleteBranch(h, head, doer, pr.head_branch).catch(() => undefined);
}
