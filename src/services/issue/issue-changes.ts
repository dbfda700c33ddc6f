import type { DB } from '../../db/connect';
import type { Comment, Issue, Repository, User } from '../../db/schema';
import { commentsAfter, lastCommentIdOf } from '../../models/comment';
import { getIssueById } from '../../models/issue';
import { emit } from '../events/bus';
import { lockIssueCounters, type IssueLockExtras } from './issue-locks';

// An issue change (edit, labels, state...) runs in one transaction that also reads back the
// timeline rows it recorded: the `issue.changed` event carries them, so subscribers (webhooks,
// notifications, the feed) see exactly this change's labels, assignees, milestone and state.

export async function changeWithEvents<T>(
  db: DB, issue: Pick<Issue, 'id' | 'repo_id'>, fn: (trx: DB) => Promise<T>, locks: IssueLockExtras = {},
): Promise<{ result: T; events: Comment[] }> {
  const issueId = issue.id;
  return db.transaction().execute(async (trx) => {
    // Every change through here may recount the issue's repository, milestones and labels.
    await lockIssueCounters(trx, issue.repo_id, issueId, locks);
    const mark = await lastCommentIdOf(trx, issueId);
    const result = await fn(trx);
    return { result, events: await commentsAfter(trx, issueId, mark) };
  });
}

/** Emits `issue.changed` with the issue as it is now (read fresh) and as it was. */
export async function emitIssueChanged(db: DB, repo: Repository, doer: User, before: Issue, events: Comment[], after?: Issue): Promise<void> {
  const issue = after ?? (await getIssueById(db, before.id)) ?? before;
  await emit(db, 'issue.changed', { repo, doer, issue, before, events });
}
