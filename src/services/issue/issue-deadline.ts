import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { updateIssueRow } from '../../models/issue';
import { canWrite, issueCtx, readableIssue } from './issue-access';
import { deadlineEvent } from './issue-events';
import { parseDueDate } from './issues';
import type { RepoAccess } from '../repo/repos';

/**
 * POST .../issues/{index}/deadline (Gitea's UpdateIssueDeadline): writers only; a null date
 * removes the deadline. Answers the stored deadline (unix seconds, 0 for none).
 */
export async function setIssueDeadline(db: DB, access: RepoAccess, doer: User, index: number, dueDate: string | null): Promise<number> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  if (!canWrite(ctx, issue.is_pull)) throw new ForbiddenError('Not repo writer');
  const deadline = dueDate ? parseDueDate(dueDate) : 0;
  if (deadline === issue.deadline_unix) return deadline;
  const now = nowUnix();
  await db.transaction().execute(async (trx) => {
    await updateIssueRow(trx, issue.id, { deadline_unix: deadline, updated_unix: now });
    await deadlineEvent(trx, issue, doer.id, issue.deadline_unix, deadline, now);
  });
  return deadline;
}
