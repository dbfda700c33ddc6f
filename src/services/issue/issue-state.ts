import type { DB } from '../../db/connect';
import type { Issue, Repository } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { PreconditionFailedError } from '../../lib/errors';
import { countOpenDependencies, getIssueById, refreshRepoIssueCounts, updateIssueRow } from '../../models/issue';
import { labelIdsOfIssue, refreshLabelCounts } from '../../models/issue-label';
import { refreshMilestoneCounts } from '../../models/milestone';
import { recordEvent } from './issue-events';
import { settingsOf } from '../repo/repo-settings';

// Opening and closing, and the counters that follow an issue's state: shared by issues and
// pull requests. Call inside the transaction of the change.

/** Recounts every counter an issue contributes to: its repository's, its labels', its milestones'. */
export async function refreshIssueCounters(
  db: DB, repoId: number, labelIds: number[], milestoneIds: (number | null)[], { repo = true } = {},
): Promise<void> {
  if (repo) await refreshRepoIssueCounts(db, repoId);
  await refreshLabelCounts(db, labelIds);
  for (const id of new Set(milestoneIds)) await refreshMilestoneCounts(db, id);
}

/** What closed (or reopened) an issue besides a person: a commit, and the pull request that merged it. */
export type StateCause = { commitSha?: string; pullIssueId?: number };

/**
 * Closes or reopens, with its event comment. Closing is refused (412, as Gitea) while issues
 * it depends on are open and the repository enables dependencies.
 */
export async function changeIssueState(
  db: DB, repo: Repository, issue: Issue, doerId: number, closed: boolean, now: number, cause: StateCause = {},
): Promise<Issue> {
  if ((issue.is_closed === 1) === closed) return issue;
  if (closed && settingsOf(repo).internal_tracker.enable_issue_dependencies && (await countOpenDependencies(db, issue.id)) > 0) {
    throw new PreconditionFailedError('cannot close this issue or pull request because it still has open dependencies');
  }
  await updateIssueRow(db, issue.id, { is_closed: closed ? 1 : 0, closed_unix: closed ? now : 0, updated_unix: now });
  // A closing keyword names the commit that closed it (Gitea's close event with a commit), and
  // a merged pull request itself in ref_issue_id: the timeline's ref_issue, "closed this in #N".
  await recordEvent(db, issue, doerId, closed ? COMMENT_TYPE.close : COMMENT_TYPE.reopen, now, {
    ...(cause.commitSha ? { commit_sha: cause.commitSha } : {}), ...(cause.pullIssueId ? { ref_issue_id: cause.pullIssueId } : {}),
  });
  await refreshIssueCounters(db, issue.repo_id, await labelIdsOfIssue(db, issue.id), [issue.milestone_id]);
  return (await getIssueById(db, issue.id))!;
}
