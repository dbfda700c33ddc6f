import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isOrgOwner } from '../../models/org';
import { isOrgMember } from '../../models/team-access';
import { getUserByName } from '../../models/user';
import { removeIssueAssignee } from '../../models/issue-assignee';
import { assigneeEvent } from '../issue/issue-events';
import {
  assignedIssueIds, cancelTransfers, deleteBlock, dropCollaborations, dropMarks, hasBlocked, insertBlock, listBlockees, repoIdsOfOwner, unfollow,
} from '../../models/user-block';
import { ORG_TYPE } from '../permissions';

// Gitea's blocking: a user or an organization blocks an account. A block cuts every tie between
// the two (follows, stars, watches, issue assignments, collaborations, pending transfers); other areas refuse new
// ties through isBlockedBy (models/blocking.ts).

const cannotBlock = () => new BadRequestError('cannot block the user');
const cannotUnblock = () => new BadRequestError('cannot unblock the user');
const blockingOrg = () => new BadRequestError('cannot block an organization');

/** The `{username}` of a block path: any existing account. */
async function blockTarget(db: DB, name: string): Promise<User> {
  const user = await getUserByName(db, name);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
  return user;
}

/** Who may act for the blocker: the user itself or a site admin; an organization's owners. */
async function mayActFor(db: DB, doer: User, blocker: User): Promise<boolean> {
  if (doer.is_admin) return true;
  if (blocker.type === ORG_TYPE) return isOrgOwner(db, blocker.id, doer.id);
  return doer.id === blocker.id;
}

/** Gitea's CanBlockUser, then the block and the cut ties in one transaction. */
export async function blockUser(db: DB, doer: User, blocker: User, name: string, note: string): Promise<void> {
  const blockee = await blockTarget(db, name);
  if (blockee.type === ORG_TYPE) throw blockingOrg();
  if (blocker.id === blockee.id || doer.id === blockee.id) throw cannotBlock();
  await db.transaction().execute(async (trx) => {
    if (await hasBlocked(trx, blocker.id, blockee.id)) throw cannotBlock();
    // An organization does not block its own members: they must be removed first.
    if (blocker.type === ORG_TYPE && (await isOrgMember(trx, blocker.id, blockee.id))) throw cannotBlock();
    if (!(await mayActFor(trx, doer, blocker))) throw cannotBlock();
    await cutTies(trx, blocker, blockee);
    await insertBlock(trx, { blockerId: blocker.id, blockeeId: blockee.id, note, now: nowUnix() });
  });
}

async function cutTies(db: DB, a: User, b: User): Promise<void> {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    await unfollow(db, x.id, y.id);
    await dropMarks(db, x.id, await repoIdsOfOwner(db, y.id));
    await unassign(db, y.id, x);
    await dropCollaborations(db, y.id, x.id);
    await cancelTransfers(db, x.id, y.id);
  }
}

/** `who` leaves the issues it is assigned to in the owner's repositories, as if it unassigned itself (Gitea's unassignIssues). */
async function unassign(db: DB, ownerId: number, who: User): Promise<void> {
  const now = nowUnix();
  for (const issueId of await assignedIssueIds(db, ownerId, who.id)) {
    await removeIssueAssignee(db, issueId, who.id);
    await assigneeEvent(db, { id: issueId }, who.id, who.id, true, now);
  }
}

export async function unblockUser(db: DB, doer: User, blocker: User, name: string): Promise<void> {
  const blockee = await blockTarget(db, name);
  if (blockee.type === ORG_TYPE) throw blockingOrg();
  if (doer.id === blockee.id) throw cannotUnblock();
  if (!(await hasBlocked(db, blocker.id, blockee.id))) throw cannotUnblock();
  if (!(await mayActFor(db, doer, blocker))) throw cannotUnblock();
  await deleteBlock(db, blocker.id, blockee.id);
}

export async function isBlocking(db: DB, blocker: User, name: string): Promise<boolean> {
  return hasBlocked(db, blocker.id, (await blockTarget(db, name)).id);
}

export const listBlocked = (db: DB, blocker: User, page: { offset: number; limit: number }) =>
  listBlockees(db, blocker.id, page.offset, page.limit);
