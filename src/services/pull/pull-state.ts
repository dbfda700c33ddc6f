import type { DB } from '../../db/connect';
import type { Issue, PullRequest, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { nowUnix } from '../../lib/time';
import { updateIssueRow } from '../../models/issue';
import { labelIdsOfIssue } from '../../models/issue-label';
import { setPullMerged } from '../../models/pull';
import { recordEvent } from '../issue/issue-events';
import { emit } from '../events/bus';
import { getIssueById } from '../../models/issue';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { refreshIssueCounters } from '../issue/issue-state';
import { lockIssueCounters } from '../issue/issue-locks';
import { clearIntent } from '../recovery/intent';

/**
 * Records a merge: the pull row, the merge event, the issue closed and every counter following.
 * `intentId`, the merge's 'pull.merge' intent, goes in the same transaction: merged and done together.
 * Resolves false, recording nothing, when the pull request was already merged.
 */
export type MergeRecord = {
  repoId: number;
  /** The doer's row when the caller holds it (not read again), else its id. */
  doer: User | number;
  issue: Pick<Issue, 'id' | 'milestone_id' | 'index' | 'title'>;
  pr: PullRequest;
  commit: string;
  /** Merged by a scheduled auto-merge. */
  auto?: boolean;
  intentId?: number;
};

export async function markMerged(db: DB, { repoId, doer: doerOrId, issue, pr, commit, auto = false, intentId }: MergeRecord): Promise<boolean> {
  const now = nowUnix();
  const doerId = typeof doerOrId === 'number' ? doerOrId : doerOrId.id;
  const marked = await db.transaction().execute(async (trx) => {
    await lockIssueCounters(trx, repoId, issue.id);
    // A scheduled auto-merge is done with, whoever merged. Already merged (another node finished
    // the same merge first): nothing is recorded twice, the intent goes all the same.
    const first = await setPullMerged(trx, pr.id, { merged_commit_id: commit, merged_by: doerId, merged_unix: now, status: 'mergeable', auto_merge: '' });
    if (first) {
      await recordEvent(trx, issue, doerId, COMMENT_TYPE.mergePull, now, { content: '' });
      // Closed without a close event (the merge event stands for it), dependencies or not, as Gitea.
      await updateIssueRow(trx, issue.id, { is_closed: 1, closed_unix: now, updated_unix: now });
      await refreshIssueCounters(trx, repoId, await labelIdsOfIssue(trx, issue.id), [issue.milestone_id]);
    }
    if (intentId !== undefined) await clearIntent(trx, intentId);
    return first;
  });
  if (!marked) return false;
  // The repository and the issue are read again (the merge changed them); the doer's row, when
  // the caller holds it, is passed as it is (a merge does not change it).
  const [repo, doer, merged] = await Promise.all([
    getRepoById(db, repoId), typeof doerOrId === 'number' ? getUserById(db, doerOrId) : doerOrId, getIssueById(db, issue.id),
  ]);
  if (repo && doer && merged) await emit(db, 'pull.merged', { repo, doer, issue: merged, auto });
  return true;
}

