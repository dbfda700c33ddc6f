import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import type { Database, User } from '../db/schema';

// Follow rows: `user_id` follows `follow_id`. The user's num_followers / num_following counts
// move with the rows (unfollow lives beside the blocks that also cut follows).

type UserEB = ExpressionBuilder<Database & { u: Database['user'] }, 'u'>;

/**
 * Gitea's isUserVisibleToViewerCond for listed users `u`: admins see everyone; anonymous and
 * restricted viewers public users only; others all but private users, except themselves, the
 * users who follow them, and the members of organizations they belong to (and those orgs).
 */
export function listedUserVisible(eb: UserEB, viewer: User | null) {
  if (viewer?.is_admin) return sql<SqlBool>`1 = 1`;
  if (!viewer || viewer.is_restricted) return eb('u.visibility', '=', 0);
  const myOrgs = eb.selectFrom('team_user').select('org_id').where('uid', '=', viewer.id);
  return eb.or([
    eb('u.visibility', '!=', 2),
    eb('u.id', '=', viewer.id),
    eb('u.id', 'in', eb.selectFrom('follow').select('user_id').where('follow_id', '=', viewer.id)),
    eb('u.id', 'in', eb.selectFrom('team_user').select('uid').where('org_id', 'in', myOrgs)),
    eb('u.id', 'in', myOrgs),
  ]);
}

export async function isFollowing(db: DB, uid: number, target: number): Promise<boolean> {
  const row = await db.selectFrom('follow').select('id').where('user_id', '=', uid).where('follow_id', '=', target).executeTakeFirst();
  return !!row;
}

/** `uid` starts following `target`; false when it already did. Counts follow the row. */
export async function insertFollow(db: DB, uid: number, target: number, now: number): Promise<boolean> {
  const r = await db.insertInto('follow').values({ user_id: uid, follow_id: target, created_unix: now })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (!Number(r.numInsertedOrUpdatedRows ?? 0)) return false;
  await db.updateTable('user').set({ num_following: sql`num_following + 1` }).where('id', '=', uid).execute();
  await db.updateTable('user').set({ num_followers: sql`num_followers + 1` }).where('id', '=', target).execute();
  return true;
}

type Listing = { users: User[]; total: number };

/**
 * The followers (`side` 'followers': individuals following userId) or the followed accounts
 * ('following': users and organizations userId follows), as far as the viewer may see them,
 * in the order the follows were made.
 */
export async function listFollows(
  db: DB, side: 'followers' | 'following', userId: number, viewer: User | null, offset: number, limit: number,
): Promise<Listing> {
  const [mine, theirs] = side === 'followers' ? (['follow_id', 'user_id'] as const) : (['user_id', 'follow_id'] as const);
  const base = db.selectFrom('follow as f').innerJoin('user as u', 'u.id', `f.${theirs}`)
    .where(`f.${mine}`, '=', userId)
    .where('u.type', 'in', side === 'followers' ? [0] : [0, 1])
    .where((eb) => listedUserVisible(eb as unknown as UserEB, viewer));
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const users = await base.selectAll('u').orderBy('f.id').limit(limit).offset(offset).execute();
  return { users, total: Number(count.n) };
}
