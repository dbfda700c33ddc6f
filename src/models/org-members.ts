import type { DB } from '../db/connect';
import type { User } from '../db/schema';

// Membership is held by team_user; org_user mirrors it (one row per member) and carries
// whether the member shows the membership publicly.

export type MemberQuery = { orgId: number; publicOnly: boolean; offset: number; limit: number };

function membersQuery(db: DB, q: MemberQuery) {
  let query = db.selectFrom('org_user as ou').innerJoin('user as u', 'u.id', 'ou.uid').where('ou.org_id', '=', q.orgId);
  if (q.publicOnly) query = query.where('ou.is_public', '=', 1);
  return query;
}

/** Members in the order they joined (Gitea lists org_user rows by id). */
export async function listOrgMembers(db: DB, q: MemberQuery): Promise<{ users: User[]; total: number }> {
  const count = await membersQuery(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const users = await membersQuery(db, q).selectAll('u').orderBy('ou.id').limit(q.limit).offset(q.offset).execute();
  return { users, total: Number(count.n) };
}

export async function isPublicMember(db: DB, orgId: number, uid: number): Promise<boolean> {
  const row = await db.selectFrom('org_user').select('id')
    .where('org_id', '=', orgId).where('uid', '=', uid).where('is_public', '=', 1).executeTakeFirst();
  return !!row;
}

export async function setMembershipPublic(db: DB, orgId: number, uid: number, isPublic: boolean): Promise<void> {
  await db.updateTable('org_user').set({ is_public: isPublic ? 1 : 0 }).where('org_id', '=', orgId).where('uid', '=', uid).execute();
}

/** How many users sit on the organization's Owners team(s). */
export async function countOwners(db: DB, orgId: number): Promise<number> {
  const row = await db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select((eb) => eb.fn.count<number>('tu.uid').distinct().as('n'))
    .where('tu.org_id', '=', orgId).where('t.authorize', '=', 4).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Takes the user off every team of the organization and out of it; keeps team counts in step. */
export async function deleteOrgMembership(db: DB, orgId: number, uid: number): Promise<void> {
  const teams = await db.selectFrom('team_user').select('team_id').where('org_id', '=', orgId).where('uid', '=', uid).execute();
  if (teams.length) {
    await db.deleteFrom('team_user').where('org_id', '=', orgId).where('uid', '=', uid).execute();
    await db.updateTable('team').set((eb) => ({ num_members: eb('num_members', '-', 1) }))
      .where('id', 'in', teams.map((t) => t.team_id)).execute();
  }
  await db.deleteFrom('org_user').where('org_id', '=', orgId).where('uid', '=', uid).execute();
}

/** The organization's private repositories the user does not collaborate on. */
export async function privateOrgRepoIdsWithoutCollab(db: DB, orgId: number, uid: number): Promise<number[]> {
  const rows = await db.selectFrom('repository').select('id')
    .where('owner_id', '=', orgId).where('is_private', '=', 1)
    .where('id', 'not in', (eb) => eb.selectFrom('collaboration').select('repo_id').where('user_id', '=', uid))
    .execute();
  return rows.map((r) => r.id);
}

/** Organizations the user belongs to (any visibility). */
export async function orgIdsOfUser(db: DB, uid: number): Promise<number[]> {
  const rows = await db.selectFrom('org_user').select('org_id').where('uid', '=', uid).execute();
  return rows.map((r) => r.org_id);
}
