import type { DB } from '../../db/connect';
import type { Issue, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { ConflictError, ForbiddenError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getIssueById, issuesByIds } from '../../models/issue';
import {
  countStopwatchesOfUser, deleteStopwatch, getStopwatch, insertStopwatch, insertTrackedTime, stopwatchesOfUser, type Stopwatch,
} from '../../models/tracked-time';
import { canWrite, issueCtx, readableIssue } from './issue-access';
import { recordEvent } from './issue-events';
import { repoRefs, type RepoRef } from './issue-views';
import type { RepoAccess } from '../repo/repos';
import { canUseTracker } from './time-tracker';
import type { Hearth } from '../../hearth';

// Stopwatches (Gitea's issue_stopwatch.go): one per user and issue; starting one stops the
// user's other running stopwatch, stopping one records the elapsed time.

export type StopwatchView = { sw: Stopwatch; issue: Issue; repo: RepoRef };

/** Gitea's prepareIssueForStopwatch: a writer who may track time, with (or without) a stopwatch. */
async function prepare(h: Hearth, access: RepoAccess, doer: User, index: number, shouldExist: boolean) {
  const ctx = await issueCtx(h.db, access, doer);
  const issue = await readableIssue(h.db, ctx, index);
  if (!canWrite(ctx, issue.is_pull)) throw new ForbiddenError('Unable to write to PRs');
  if (!(await canUseTracker(h, ctx, issue, doer))) throw new ForbiddenError('Cannot use time tracker');
  const sw = await getStopwatch(h.db, doer.id, issue.id);
  if (!!sw !== shouldExist) {
    throw new ConflictError(shouldExist ? 'cannot stop/cancel a non-existent stopwatch' : 'cannot start a stopwatch again if it already exists');
  }
  return { issue, sw };
}

/** Records the stopwatch's time on its issue (comment content `|seconds`, as Gitea 1.21+). */
async function finish(db: DB, sw: Stopwatch, issue: Pick<Issue, 'id'>, doerId: number, now: number): Promise<void> {
  const seconds = Math.max(0, now - sw.created_unix);
  const time = await insertTrackedTime(db, { issue_id: issue.id, user_id: doerId, time: seconds, created_unix: now });
  await deleteStopwatch(db, sw.id);
  await recordEvent(db, issue, doerId, COMMENT_TYPE.stopTracking, now, { content: `|${seconds}`, meta: JSON.stringify({ time_id: time.id }) });
}

/** POST .../stopwatch/start */
export async function startStopwatch(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<void> {
  const { issue } = await prepare(h, access, doer, index, false);
  const now = nowUnix();
  await h.db.transaction().execute(async (trx) => {
    for (const other of await stopwatchesOfUser(trx, doer.id)) {
      const otherIssue = await getIssueById(trx, other.issue_id);
      if (otherIssue) await finish(trx, other, otherIssue, doer.id, now);
    }
    await insertStopwatch(trx, doer.id, issue.id, now);
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.startTracking, now);
  });
}

/** POST .../stopwatch/stop */
export async function stopStopwatch(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<void> {
  const { issue, sw } = await prepare(h, access, doer, index, true);
  await h.db.transaction().execute((trx) => finish(trx, sw!, issue, doer.id, nowUnix()));
}

/** DELETE .../stopwatch/delete */
export async function cancelStopwatch(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<void> {
  const { issue, sw } = await prepare(h, access, doer, index, true);
  const now = nowUnix();
  await h.db.transaction().execute(async (trx) => {
    await deleteStopwatch(trx, sw!.id);
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.cancelTracking, now);
  });
}

/** GET /user/stopwatches */
export async function listMyStopwatches(
  db: DB, doer: User, page: { offset: number; limit: number },
): Promise<{ views: StopwatchView[]; total: number }> {
  const [sws, total] = await Promise.all([stopwatchesOfUser(db, doer.id, page), countStopwatchesOfUser(db, doer.id)]);
  const issues = new Map((await issuesByIds(db, sws.map((s) => s.issue_id))).map((i) => [i.id, i]));
  const repos = await repoRefs(db, [...issues.values()].map((i) => i.repo_id));
  const views = sws.flatMap((sw) => {
    const issue = issues.get(sw.issue_id);
    const repo = issue && repos.get(issue.repo_id);
    return issue && repo ? [{ sw, issue, repo }] : [];
  });
  return { views, total };
}
