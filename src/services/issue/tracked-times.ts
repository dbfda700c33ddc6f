import type { DB } from '../../db/connect';
import type { Issue, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { parseRfc3339 } from '../../lib/dates';
import { BadRequestError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  countTrackedTimes, getTrackedTime, insertTrackedTime, listTrackedTimes, markTimesDeleted, type TimeQuery,
} from '../../models/tracked-time';
import { getUserByName } from '../../models/user';
import { ACCESS } from '../permissions';
import { canRead, issueCtx, readableIssue, type IssueCtx } from './issue-access';
import { recordEvent } from './issue-events';
import type { RepoAccess } from '../repo/repos';
import { canUseTracker, timeViews, trackerEnabled, type TimeView } from './time-tracker';
import type { Hearth } from '../../hearth';

// Tracked times (Gitea's issue_tracked_time.go). Deleting marks rows deleted; each change
// leaves a comment whose content is `|seconds`, as Gitea 1.21+ stores it.

export type TimeFilter = { user?: string; since?: string; before?: string };
type PageOpt = { offset: number; limit: number };
export type TimeList = { views: TimeView[]; total: number };

function timeParam(field: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const unix = parseRfc3339(value);
  if (unix === null) throw new InvalidError(`[${field}]: invalid time, expected RFC 3339`, field);
  return unix;
}

/** Gitea: only admins and issue writers may look at other users' times. */
async function filterQuery(db: DB, ctx: IssueCtx, doer: User, f: TimeFilter): Promise<TimeQuery> {
  const q: TimeQuery = { repoId: ctx.repo.id, since: timeParam('since', f.since), before: timeParam('before', f.before) };
  if (f.user) {
    const user = await getUserByName(db, f.user);
    if (!user) throw new NotFoundError(`user does not exist [name: ${f.user}]`);
    q.userId = user.id;
  }
  if (!doer.is_admin && q.userId !== doer.id && ctx.units.issues < ACCESS.write) {
    if (q.userId !== undefined) throw new ForbiddenError('query by user not allowed; not enough rights');
    q.userId = doer.id;
  }
  return q;
}

async function page(db: DB, q: TimeQuery, p: PageOpt): Promise<TimeList> {
  const [times, total] = await Promise.all([listTrackedTimes(db, q, p), countTrackedTimes(db, q)]);
  return { views: await timeViews(db, times), total };
}

/** GET .../issues/{index}/times */
export async function listIssueTimes(
  h: Hearth, access: RepoAccess, doer: User, index: number, f: TimeFilter, p: PageOpt,
): Promise<TimeList> {
  if (!trackerEnabled(h.config, access.repo)) throw new NotFoundError('Timetracker is disabled');
  const ctx = await issueCtx(h.db, access, doer);
  const issue = await readableIssue(h.db, ctx, index);
  return page(h.db, { ...(await filterQuery(h.db, ctx, doer, f)), issueId: issue.id }, p);
}

/** GET /repos/{owner}/{repo}/times */
export async function listRepoTimes(h: Hearth, access: RepoAccess, doer: User, f: TimeFilter, p: PageOpt): Promise<TimeList> {
  if (!trackerEnabled(h.config, access.repo)) throw new BadRequestError('time tracking disabled');
  const ctx = await issueCtx(h.db, access, doer);
  if (!canRead(ctx, false)) throw new NotFoundError();
  return page(h.db, await filterQuery(h.db, ctx, doer, f), p);
}

/**
 * GET /repos/{owner}/{repo}/times/{user} (deprecated): the user's times in the repository,
 * for the user, repository admins and site admins.
 */
export async function listUserRepoTimes(h: Hearth, access: RepoAccess, doer: User, userName: string): Promise<TimeView[]> {
  if (!trackerEnabled(h.config, access.repo)) throw new BadRequestError('time tracking disabled');
  const ctx = await issueCtx(h.db, access, doer);
  if (!canRead(ctx, false)) throw new NotFoundError();
  const user = await getUserByName(h.db, userName);
  if (!user) throw new NotFoundError(`user does not exist [name: ${userName}]`);
  if (access.mode < ACCESS.admin && !doer.is_admin && doer.id !== user.id) {
    throw new ForbiddenError('query by user not allowed; not enough rights');
  }
  return timeViews(h.db, await listTrackedTimes(h.db, { repoId: access.repo.id, userId: user.id }));
}

/** GET /user/times */
export async function listMyTimes(db: DB, doer: User, f: TimeFilter, p: PageOpt): Promise<TimeList> {
  return page(db, { userId: doer.id, since: timeParam('since', f.since), before: timeParam('before', f.before) }, p);
}

/** The issue, when the caller may track time on it: disabled is 400, not allowed 403. */
async function trackable(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<{ ctx: IssueCtx; issue: Issue }> {
  const ctx = await issueCtx(h.db, access, doer);
  const issue = await readableIssue(h.db, ctx, index);
  if (!(await canUseTracker(h, ctx, issue, doer))) {
    if (!trackerEnabled(h.config, access.repo)) throw new BadRequestError('time tracking disabled');
    throw new ForbiddenError('not allowed to track time on this issue');
  }
  return { ctx, issue };
}

export type AddTimeInput = { time: number; created?: string; user_name?: string };

/** POST .../issues/{index}/times: repository and site admins may add time for another user. */
export async function addTime(h: Hearth, access: RepoAccess, doer: User, index: number, input: AddTimeInput): Promise<TimeView> {
  const { issue } = await trackable(h, access, doer, index);
  let user = doer;
  if (input.user_name && ((access.mode >= ACCESS.admin && doer.name !== input.user_name) || doer.is_admin)) {
    const found = await getUserByName(h.db, input.user_name);
    if (!found) throw new InvalidError(`[user_name]: user does not exist [name: ${input.user_name}]`, 'user_name');
    user = found;
  }
  const created = timeParam('created', input.created) ?? nowUnix();
  const time = await h.db.transaction().execute(async (trx) => {
    const row = await insertTrackedTime(trx, { issue_id: issue.id, user_id: user.id, time: input.time, created_unix: created });
    await recordEvent(trx, issue, user.id, COMMENT_TYPE.addTimeManual, nowUnix(), { content: `|${input.time}`, meta: JSON.stringify({ time_id: row.id }) });
    return row;
  });
  return (await timeViews(h.db, [time]))[0]!;
}

/** DELETE .../issues/{index}/times: the caller's own times on the issue (404 when none). */
export async function resetIssueTimes(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<void> {
  const { issue } = await trackable(h, access, doer, index);
  await h.db.transaction().execute(async (trx) => {
    const times = await listTrackedTimes(trx, { issueId: issue.id, userId: doer.id });
    if (!times.length) throw new NotFoundError('no tracked times to delete');
    await markTimesDeleted(trx, times.map((t) => t.id));
    const total = times.reduce((sum, t) => sum + t.time, 0);
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.deleteTimeManual, nowUnix(), { content: `|${total}` });
  });
}

/** DELETE .../issues/{index}/times/{id}: one's own, or any for site admins. */
export async function deleteTime(h: Hearth, access: RepoAccess, doer: User, index: number, id: number): Promise<void> {
  const { issue } = await trackable(h, access, doer, index);
  const time = Number.isSafeInteger(id) ? await getTrackedTime(h.db, id) : undefined;
  if (!time || time.issue_id !== issue.id) throw new NotFoundError(`tracked time does not exist [id: ${id}]`);
  if (time.deleted) throw new NotFoundError(`tracked time [${time.id}] already deleted`);
  if (!doer.is_admin && time.user_id !== doer.id) throw new ForbiddenError('only the owner or an admin may delete this time');
  await h.db.transaction().execute(async (trx) => {
    await markTimesDeleted(trx, [time.id]);
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.deleteTimeManual, nowUnix(), { content: `|${time.time}` });
  });
}
