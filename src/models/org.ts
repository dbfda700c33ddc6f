import type { DB } from '../db/connect';
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
