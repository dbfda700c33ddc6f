import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { BadRequestError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { ACCESS } from '../permissions';
import { nowUnix } from '../../lib/time';
import { countPinned, maxPinOrder, pinnedIssues, setPinOrder, shiftPins } from '../../models/issue-pin';
import { canRead, issueCtx, readableIssue } from './issue-access';
import { recordEvent } from './issue-events';
import { issueViews, type IssueView } from './issue-views';
import type { RepoAccess } from '../repo/repos';

// Pinned issues (Gitea's issue_pin.go): per repository and kind, ordered 1..n, at most
// MAX_PINNED (Gitea's [repository.issue] MAX_PINNED default).

export const MAX_PINNED = 3;

/** Gitea's reqRepoAdmin on the pin routes, here so every front end applies it. */
function assertPinner(access: RepoAccess): void {
  if (access.mode < ACCESS.admin) throw new ForbiddenError('only repository admins may pin or unpin');
}

/** POST .../issues/{index}/pin: pinning a pinned issue changes nothing. */
export async function pinIssue(db: DB, access: RepoAccess, doer: User, index: number): Promise<void> {
  assertPinner(access);
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  if (issue.pin_order > 0) return;
  await db.transaction().execute(async (trx) => {
    if (await countPinned(trx, issue.repo_id, issue.is_pull) >= MAX_PINNED) throw new BadRequestError('the max number of pinned issues has been readched');
    await setPinOrder(trx, issue.id, await maxPinOrder(trx, issue.repo_id, issue.is_pull) + 1);
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.pin, nowUnix());
  });
}

/** DELETE .../issues/{index}/pin: the pins after it move up. */
export async function unpinIssue(db: DB, access: RepoAccess, doer: User, index: number): Promise<void> {
  assertPinner(access);
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  if (issue.pin_order === 0) return;
  await db.transaction().execute(async (trx) => {
    await setPinOrder(trx, issue.id, 0);
    await shiftPins(trx, issue.repo_id, issue.is_pull, issue.pin_order + 1, Number.MAX_SAFE_INTEGER, -1);
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.unpin, nowUnix());
  });
}

/**
 * PATCH .../issues/{index}/pin/{position}: the pin takes the position asked for, as Gitea's
 * MovePin does, even past the last one (the pins between close ranks behind it).
 */
export async function moveIssuePin(db: DB, access: RepoAccess, doer: User, index: number, position: number): Promise<void> {
  assertPinner(access);
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  if (issue.pin_order === 0) return;
  if (!Number.isSafeInteger(position) || position < 1) throw new InvalidError('[position]: the position can\'t be lower than 1', 'position');
  await db.transaction().execute(async (trx) => {
    const to = position;
    const from = issue.pin_order;
    if (to === from) return;
    await setPinOrder(trx, issue.id, 0);
    if (to < from) await shiftPins(trx, issue.repo_id, issue.is_pull, to, from - 1, 1);
    else await shiftPins(trx, issue.repo_id, issue.is_pull, from + 1, to, -1);
    await setPinOrder(trx, issue.id, to);
  });
}

/** GET .../issues/pinned (or pulls): in pin order. */
export async function listPinned(db: DB, access: RepoAccess, doer: User | null, isPull: boolean): Promise<IssueView[]> {
  // Gitea: reqRepoReader on the unit of that kind.
  if (!canRead(await issueCtx(db, access, doer), isPull)) throw new NotFoundError();
  return issueViews(db, await pinnedIssues(db, access.repo.id, isPull ? 1 : 0), access);
}

/** GET .../new_pin_allowed */
export async function newPinAllowed(db: DB, access: RepoAccess): Promise<{ issues: boolean; pull_requests: boolean }> {
  const [issues, pulls] = await Promise.all([countPinned(db, access.repo.id, 0), countPinned(db, access.repo.id, 1)]);
  return { issues: issues < MAX_PINNED, pull_requests: pulls < MAX_PINNED };
}
