import { sql, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import type { Repository, Team, TeamUnit, User } from '../db/schema';

// Teams, their members and repositories. Membership primitives shared with organization
// creation (insertTeam, addTeamUser, setTeamUnits) live in models/org.ts.

export async function getTeamById(db: DB, id: number): Promise<Team | undefined> {
  return db.selectFrom('team').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getTeamByName(db: DB, orgId: number, name: string): Promise<Team | undefined> {
  return db.selectFrom('team').selectAll().where('org_id', '=', orgId).where('lower_name', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function unitsOfTeams(db: DB, teamIds: number[]): Promise<TeamUnit[]> {
  if (!teamIds.length) return [];
  return db.selectFrom('team_unit').selectAll().where('team_id', 'in', teamIds).orderBy('id').execute();
}

/**
 * Which teams of an organization a caller may list: `all` (owners, site admins), or public
 * ones plus, for members, limited ones and the private ones they sit on.
 */
export type TeamFilter = { orgId: number; keyword?: string; includeDesc?: boolean; seer: 'all' | { uid: number; member: boolean } };

function orgTeamsQuery(db: DB, f: TeamFilter) {
  let q = db.selectFrom('team').where('org_id', '=', f.orgId);
  if (f.keyword) {
    const like = `%${f.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([
      sql<SqlBool>`lower_name LIKE ${like} ESCAPE '\\'`,
      ...(f.includeDesc ? [sql<SqlBool>`lower(description) LIKE ${like} ESCAPE '\\'`] : []),
    ]));
  }
  const seer = f.seer;
  if (seer !== 'all') {
    q = q.where((eb) => eb.or([
      eb('visibility', '=', 'public'),
      ...(seer.member ? [eb('visibility', '=', 'limited')] : []),
      eb('id', 'in', eb.selectFrom('team_user').select('team_id').where('uid', '=', seer.uid)),
    ]));
  }
  return q;
}

/** Teams of an organization by name (Gitea lists them by name). */
export async function listOrgTeams(db: DB, f: TeamFilter, offset: number, limit: number): Promise<{ teams: Team[]; total: number }> {
  const count = await orgTeamsQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const teams = await orgTeamsQuery(db, f).selectAll().orderBy('lower_name').orderBy('id').limit(limit).offset(offset).execute();
  return { teams, total: Number(count.n) };
}

/** Every team the user sits on, in any organization. */
export async function listTeamsOfUser(db: DB, uid: number, offset: number, limit: number): Promise<{ teams: Team[]; total: number }> {
  const base = db.selectFrom('team as t').innerJoin('team_user as tu', 'tu.team_id', 't.id').where('tu.uid', '=', uid);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const teams = await base.selectAll('t').orderBy('t.org_id').orderBy('t.lower_name').orderBy('t.id')
    .limit(limit).offset(offset).execute();
  return { teams, total: Number(count.n) };
}

/** Teams of the organization that list the repository. */
export async function listRepoTeams(db: DB, orgId: number, repoId: number): Promise<Team[]> {
  return db.selectFrom('team').selectAll().where('org_id', '=', orgId)
    .where('id', 'in', (eb) => eb.selectFrom('team_repo').select('team_id').where('repo_id', '=', repoId))
    .orderBy('lower_name').orderBy('id').execute();
}

export async function updateTeamRow(db: DB, id: number, patch: Partial<Pick<Team,
  'name' | 'lower_name' | 'description' | 'authorize' | 'includes_all_repositories' | 'can_create_org_repo' | 'visibility' | 'updated_unix'
>>): Promise<void> {
  await db.updateTable('team').set(patch).where('id', '=', id).execute();
}

/** Sets every unit row of the team to `mode` (the team's level changed without new units). */
export async function setAllUnitModes(db: DB, teamId: number, mode: number, capped: string[], cap: number): Promise<void> {
  await db.updateTable('team_unit').set({ access_mode: mode }).where('team_id', '=', teamId).where('type', 'not in', capped).execute();
  await db.updateTable('team_unit').set({ access_mode: Math.min(mode, cap) }).where('team_id', '=', teamId).where('type', 'in', capped).execute();
}

/** The team row; members, repositories and units go with it (foreign keys). */
export async function deleteTeamRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('team').where('id', '=', id).execute();
}

export async function isTeamMember(db: DB, teamId: number, uid: number): Promise<boolean> {
  const row = await db.selectFrom('team_user').select('id').where('team_id', '=', teamId).where('uid', '=', uid).executeTakeFirst();
  return !!row;
}

/** The teams the user sits on in one organization. */
export async function teamIdsOfUser(db: DB, orgId: number, uid: number): Promise<number[]> {
  const rows = await db.selectFrom('team_user').select('team_id').where('org_id', '=', orgId).where('uid', '=', uid).execute();
  return rows.map((r) => r.team_id);
}

export async function teamMemberIds(db: DB, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_user').select('uid').where('team_id', '=', teamId).execute();
  return rows.map((r) => r.uid);
}

/** Members in the order they joined. */
export async function listTeamMembers(db: DB, teamId: number, offset: number, limit: number): Promise<User[]> {
  return db.selectFrom('team_user as tu').innerJoin('user as u', 'u.id', 'tu.uid').selectAll('u')
    .where('tu.team_id', '=', teamId).orderBy('tu.id').limit(limit).offset(offset).execute();
}

/** Takes the user off the team; false when not on it. Keeps the member count in step. */
export async function removeTeamUser(db: DB, team: Team, uid: number): Promise<boolean> {
  const r = await db.deleteFrom('team_user').where('team_id', '=', team.id).where('uid', '=', uid).executeTakeFirst();
  if (!Number(r.numDeletedRows)) return false;
  await db.updateTable('team').set((eb) => ({ num_members: eb('num_members', '-', 1) })).where('id', '=', team.id).execute();
  return true;
}

export async function countUserTeamsInOrg(db: DB, orgId: number, uid: number): Promise<number> {
  const row = await db.selectFrom('team_user').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId).where('uid', '=', uid).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function hasTeamRepo(db: DB, teamId: number, repoId: number): Promise<boolean> {
  const row = await db.selectFrom('team_repo').select('id').where('team_id', '=', teamId).where('repo_id', '=', repoId).executeTakeFirst();
  return !!row;
}

function teamReposQuery(db: DB, teamId: number, publicOnly: boolean) {
  let q = db.selectFrom('team_repo as tr').innerJoin('repository as r', 'r.id', 'tr.repo_id').where('tr.team_id', '=', teamId);
  if (publicOnly) q = q.where('r.is_private', '=', 0);
  return q;
}

/** The team's repositories by name; `publicOnly` for callers outside the team. */
export async function listTeamRepos(db: DB, teamId: number, publicOnly: boolean, offset: number, limit: number): Promise<{ repos: Repository[]; total: number }> {
  const count = await teamReposQuery(db, teamId, publicOnly).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const repos = await teamReposQuery(db, teamId, publicOnly).selectAll('r').orderBy('r.lower_name').orderBy('r.id')
    .limit(limit).offset(offset).execute();
  return { repos, total: Number(count.n) };
}

export async function teamRepoIds(db: DB, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_repo').select('repo_id').where('team_id', '=', teamId).execute();
  return rows.map((r) => r.repo_id);
}

/** Takes one repository off the team; false when it was not listed. */
export async function removeTeamRepo(db: DB, team: Team, repoId: number): Promise<boolean> {
  const r = await db.deleteFrom('team_repo').where('team_id', '=', team.id).where('repo_id', '=', repoId).executeTakeFirst();
  if (!Number(r.numDeletedRows)) return false;
  await db.updateTable('team').set((eb) => ({ num_repos: eb('num_repos', '-', 1) })).where('id', '=', team.id).execute();
  return true;
}

/** Lists every repository of the organization on the team (Gitea's AddAllRepositoriesToTeam). */
export async function addAllOrgReposToTeam(db: DB, team: Team): Promise<void> {
  await db.insertInto('team_repo')
    .columns(['org_id', 'team_id', 'repo_id'])
    .expression((eb) => eb.selectFrom('repository').select([eb.val(team.org_id).as('org_id'), eb.val(team.id).as('team_id'), 'id'])
      .where('owner_id', '=', team.org_id))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db.updateTable('team').set((eb) => ({
    num_repos: eb.selectFrom('team_repo').select((e) => e.fn.countAll<number>().as('n')).where('team_id', '=', team.id),
  })).where('id', '=', team.id).execute();
}

export async function privateRepoIdsOfOwner(db: DB, ownerId: number): Promise<number[]> {
  const rows = await db.selectFrom('repository').select('id').where('owner_id', '=', ownerId).where('is_private', '=', 1).execute();
  return rows.map((r) => r.id);
}

/** Before a repository goes: the teams listing it count one repository less (team_repo rows cascade). */
export async function uncountRepoOnTeams(db: DB, repoId: number): Promise<void> {
  await db.updateTable('team').set((eb) => ({ num_repos: eb('num_repos', '-', 1) }))
    .where('id', 'in', (eb) => eb.selectFrom('team_repo').select('team_id').where('repo_id', '=', repoId)).execute();
}
