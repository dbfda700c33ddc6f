import type { DB } from '../db/connect';
import type { Team } from '../db/schema';

/** Gitea's CanCreateOrgRepo: a member of the Owners team or of a team allowed to create repositories. */
export async function canCreateOrgRepo(db: DB, orgId: number, uid: number): Promise<boolean> {
  const row = await db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select('tu.id').where('tu.org_id', '=', orgId).where('tu.uid', '=', uid)
    .where((eb) => eb.or([eb('t.authorize', '=', 4), eb('t.can_create_org_repo', '=', 1)]))
    .executeTakeFirst();
  return !!row;
}

/** The members of the organization who may create repositories in it (owners, and teams allowed to). */
export async function orgRepoCreatorIds(db: DB, orgId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select('tu.uid').distinct().where('tu.org_id', '=', orgId)
    .where((eb) => eb.or([eb('t.authorize', '=', 4), eb('t.can_create_org_repo', '=', 1)]))
    .execute();
  return rows.map((r) => r.uid);
}

export async function getTeamsByIds(db: DB, ids: number[]): Promise<Team[]> {
  if (!ids.length) return [];
  return db.selectFrom('team').selectAll().where('id', 'in', ids).execute();
}

/** Lists the repository on the team (once); keeps the team's repository count in step. */
export async function addTeamRepo(db: DB, team: Team, repoId: number): Promise<void> {
  const r = await db.insertInto('team_repo').values({ org_id: team.org_id, team_id: team.id, repo_id: repoId })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (!Number(r.numInsertedOrUpdatedRows ?? 0)) return;
  await db.updateTable('team').set((eb) => ({ num_repos: eb('num_repos', '+', 1) })).where('id', '=', team.id).execute();
}

/** Takes the repository off every team of `orgId` (it leaves the organization). */
export async function removeOrgTeamRepos(db: DB, orgId: number, repoId: number): Promise<void> {
  const teams = await db.selectFrom('team_repo').select('team_id').where('org_id', '=', orgId).where('repo_id', '=', repoId).execute();
  if (!teams.length) return;
  await db.deleteFrom('team_repo').where('org_id', '=', orgId).where('repo_id', '=', repoId).execute();
  await db.updateTable('team').set((eb) => ({ num_repos: eb('num_repos', '-', 1) }))
    .where('id', 'in', teams.map((t) => t.team_id)).execute();
}

/** Which of `uids` belong to the organization. */
export async function orgMembersAmong(db: DB, orgId: number, uids: number[]): Promise<number[]> {
  if (!uids.length) return [];
  const rows = await db.selectFrom('team_user').select('uid').distinct()
    .where('org_id', '=', orgId).where('uid', 'in', uids).execute();
  return rows.map((r) => r.uid);
}
