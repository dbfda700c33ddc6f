import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isBlockedBy } from '../../models/blocking';
import { insertFollow, isFollowing, listFollows } from '../../models/follow';
import { unfollow } from '../../models/user-block';
import { getVisibleUser } from './users';

type Page = { offset: number; limit: number };

export const listFollowers = (db: DB, user: User, viewer: User | null, page: Page) =>
  listFollows(db, 'followers', user.id, viewer, page.offset, page.limit);

export const listFollowing = (db: DB, user: User, viewer: User | null, page: Page) =>
  listFollows(db, 'following', user.id, viewer, page.offset, page.limit);

/** Gitea's IsUserBlockedBy: site administrators are never held back by a block. */
async function blockedBy(db: DB, blockee: User, blocker: User): Promise<boolean> {
  return !blockee.is_admin && isBlockedBy(db, blockee.id, [blocker.id]);
}

/**
 * PUT /user/following/{username}: following oneself or someone already followed changes
 * nothing (204, as Gitea); a block either way refuses (403).
 */
export async function followUser(db: DB, doer: User, target: User): Promise<void> {
  if (doer.id === target.id) return;
  if ((await blockedBy(db, doer, target)) || (await blockedBy(db, target, doer))) {
    throw new ForbiddenError('user is blocked');
  }
  await db.transaction().execute((trx) => insertFollow(trx, doer.id, target.id, nowUnix()));
}

/** DELETE /user/following/{username}: idempotent. */
export async function unfollowUser(db: DB, doer: User, target: User): Promise<void> {
  await db.transaction().execute((trx) => unfollow(trx, doer.id, target.id));
}

/** 404 unless `user` follows `target`. */
export async function assertFollowing(db: DB, user: User, target: User): Promise<void> {
  if (!(await isFollowing(db, user.id, target.id))) throw new NotFoundError();
}

/** GET /users/{username}/following/{target}: the target must exist and be visible to the caller. */
export async function assertFollowingByName(db: DB, user: User, targetName: string, viewer: User | null): Promise<void> {
  await assertFollowing(db, user, await getVisibleUser(db, targetName, viewer));
}
