import type { DB } from '../../db/connect';
import type { Comment, Issue, Repository, User } from '../../db/schema';
import { commentsAfter, lastCommentIdOf } from '../../models/comment';
import { getIssueById } from '../../models/issue';
import { emit } from '../events/bus';

// An issue change (edit, labels, state...) runs in one transaction that also reads back the
// timeline rows it recorded: the `issue.changed` event carries them, so subscribers (webhooks,
// notifications, the feed) see exactly this change's labels, assignees, milestone and state.

export async function changeWithEvents<T>(db: DB, issueId: number, fn: (trx: DB) => Promise<T>): Promise<{ result: T; events: Comment[] }> {
  return db.transaction().execute(async (trx) => {
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
