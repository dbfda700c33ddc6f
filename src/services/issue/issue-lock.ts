import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { ForbiddenError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { updateIssueRow } from '../../models/issue';
import { canWrite, issueCtx, readableIssue } from './issue-access';
import { recordEvent } from './issue-events';
import type { RepoAccess } from '../repo/repos';

// PUT/DELETE .../issues/{index}/lock (Gitea's LockIssue/UnlockIssue): writers of the issues
// (or pulls) unit; locking twice is no error. A locked issue takes comments and reactions
// from writers only (checked where those are written).

/** Locks or unlocks; `reason` is kept on the timeline event, as Gitea. */
export async function setIssueLock(db: DB, access: RepoAccess, doer: User, index: number, locked: boolean, reason = ''): Promise<void> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  if (!canWrite(ctx, issue.is_pull)) throw new ForbiddenError(`no permission to ${locked ? 'lock' : 'unlock'} this issue`);
  if ((issue.is_locked === 1) === locked) return;
  const now = nowUnix();
  await db.transaction().execute(async (trx) => {
    await updateIssueRow(trx, issue.id, { is_locked: locked ? 1 : 0, updated_unix: now });
    await recordEvent(trx, issue, doer.id, locked ? COMMENT_TYPE.lock : COMMENT_TYPE.unlock, now, { content: locked ? reason : '' });
  });
}
