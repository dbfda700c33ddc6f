import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { likeContaining } from '../lib/like';
import type { Team, User } from '../db/schema';

export async function getOrgByName(db: DB, name: string): Promise<User | undefined> {
  return db.selectFrom('user').selectAll().where('lower_name', '=', name.toLowerCase()).where('type', '=', 1).executeTakeFirst();
}

export async function insertTeam(db: DB, row: {
  org_id: number; name: string; description?: string; authorize: number; includes_all_repositories: boolean;
  can_create_org_repo: boolean; visibility?: string; now: number;
}): Promise<Team> {
  return db.insertInto('team').values({
    org_id: row.org_id, name: row.name, lower_name: row.name.toLowerCase(), description: row.description ?? '',
    authorize: row.authorize, includes_all_repositories: row.includes_all_repositories ? 1 : 0,
    can_create_org_repo: row.can_create_org_repo ? 1 : 0, visibility: row.visibility ?? 'limited',
    created_unix: row.now, updated_unix: row.now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function setTeamUnits(db: DB, team: Team, units: Record<string, number>): Promise<void> {
  await db.deleteFrom('team_unit').where('team_id', '=', team.id).execute();
  const rows = Object.entries(units).map(([type, mode]) => ({ org_id: team.org_id, team_id: team.id, type, access_mode: mode }));
  if (rows.length) await db.insertInto('team_unit').values(rows).execute();
}

/** Adds a user to a team (and to the organization); false when already a member. */
export async function addTeamUser(db: DB, team: Team, uid: number): Promise<boolean> {
  const res = await db.insertInto('team_user').values({ org_id: team.org_id, team_id: team.id, uid })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (!Number(res.numInsertedOrUpdatedRows ?? 0)) return false;
  await db.updateTable('team').set((eb) => ({ num_members: eb('num_members', '+', 1) })).where('id', '=', team.id).execute();
  await db.insertInto('org_user').values({ org_id: team.org_id, uid }).onConflict((oc) => oc.doNothing()).execute();
  return true;
}

export async function getOwnersTeam(db: DB, orgId: number): Promise<Team | undefined> {
  return db.selectFrom('team').selectAll().where('org_id', '=', orgId).where('authorize', '=', 4).orderBy('id').executeTakeFirst();
}

export async function isOrgOwner(db: DB, orgId: number, uid: number): Promise<boolean> {
  const row = await db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select('tu.id').where('tu.org_id', '=', orgId).where('tu.uid', '=', uid).where('t.authorize', '=', 4).executeTakeFirst();
  return !!row;
}

/** Highest mode the user's teams in the organization carry (0: not a member). */
export async function maxTeamMode(db: DB, orgId: number, uid: number): Promise<number> {
  const row = await db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select((eb) => eb.fn.max('t.authorize').as('mode')).where('tu.org_id', '=', orgId).where('tu.uid', '=', uid)
    .executeTakeFirst();
  return Number(row?.mode ?? 0);
}

export type OrgSearch = {
  /** Visibility levels listed; undefined: all. */
  visibilities?: number[];
  /** Only organizations this user belongs to (a restricted viewer's view). */
  memberUid?: number;
  /** Within the name or full name (the explore page's search). */
  keyword?: string;
  offset: number;
  limit: number;
};

function orgSearchQuery(db: DB, q: OrgSearch) {
  let query = db.selectFrom('user').where('type', '=', 1);
  if (q.visibilities) query = query.where('visibility', 'in', q.visibilities.length ? q.visibilities : [-1]);
  if (q.memberUid !== undefined) {
    const uid = q.memberUid;
    query = query.where('id', 'in', (eb) => eb.selectFrom('org_user').select('org_id').where('uid', '=', uid));
  }
  if (q.keyword) {
    const like = likeContaining(q.keyword.toLowerCase());
    query = query.where((eb) => eb.or([sql<boolean>`lower_name LIKE ${like} ESCAPE '\\'`, sql<boolean>`lower(full_name) LIKE ${like} ESCAPE '\\'`]));
  }
  return query;
}

/** Organizations by name, as Gitea's SearchUsers with the alphabetical order. */
export async function searchOrgs(db: DB, q: OrgSearch): Promise<{ orgs: User[]; total: number }> {
  const count = await orgSearchQuery(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const orgs = await orgSearchQuery(db, q).selectAll().orderBy('name').orderBy('id')
    .limit(q.limit).offset(q.offset).execute();
  return { orgs, total: Number(count.n) };
}

export type UserOrgsQuery = {
  uid: number;
  /** Also memberships the user has not made public. */
  includeConcealed: boolean;
  /** Highest organization visibility listed (0 public, 1 limited, 2 private). */
  maxVisibility: number;
  offset: number;
  limit: number;
};

function userOrgsQuery(db: DB, q: UserOrgsQuery) {
  return db.selectFrom('user').where('type', '=', 1).where('visibility', '<=', q.maxVisibility)
    .where('id', 'in', (eb) => {
      let sub = eb.selectFrom('org_user').select('org_id').where('uid', '=', q.uid);
      if (!q.includeConcealed) sub = sub.where('is_public', '=', 1);
      return sub;
    });
}

/** The organizations a user belongs to, by name (Gitea's FindOrgs). */
export async function listUserOrgs(db: DB, q: UserOrgsQuery): Promise<{ orgs: User[]; total: number }> {
  const count = await userOrgsQuery(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const orgs = await userOrgsQuery(db, q).selectAll().orderBy('lower_name').orderBy('id')
    .limit(q.limit).offset(q.offset).execute();
  return { orgs, total: Number(count.n) };
}

/** Removes the organization row; teams, memberships, labels and blocks go with it (foreign keys). */
export async function deleteOrgRow(db: DB, orgId: number): Promise<void> {
  await db.deleteFrom('repo_redirect').where('owner_id', '=', orgId).execute();
  await db.deleteFrom('action').where('user_id', '=', orgId).execute();
  await db.deleteFrom('user').where('id', '=', orgId).where('type', '=', 1).execute();
}

/**
 * Teams a new repository of the organization joins: those covering all repositories, and the
 * creator's teams that allowed it to create one.
 */
export async function teamsForNewRepo(db: DB, orgId: number, creatorId: number): Promise<Team[]> {
  return db.selectFrom('team').selectAll().where('org_id', '=', orgId)
    .where((eb) => eb.or([
      eb('includes_all_repositories', '=', 1),
      eb.and([
        eb('can_create_org_repo', '=', 1),
        eb('id', 'in', eb.selectFrom('team_user').select('team_id').where('uid', '=', creatorId)),
      ]),
    ]))
    .orderBy('id').execute();
}
