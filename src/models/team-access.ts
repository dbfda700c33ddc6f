import type { DB } from '../db/connect';

export type TeamGrant = { team_id: number; authorize: number; includes_all_repositories: number };

/** Teams of `uid` in `orgId` that reach `repoId` (listed on the team, or covering all repositories). */
export async function teamsGrantingRepo(db: DB, orgId: number, uid: number, repoId: number): Promise<TeamGrant[]> {
  return db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select(['t.id as team_id', 't.authorize', 't.includes_all_repositories'])
    .where('tu.uid', '=', uid).where('tu.org_id', '=', orgId)
    .where((eb) => eb.or([
      eb('t.includes_all_repositories', '=', 1),
      eb('t.id', 'in', eb.selectFrom('team_repo').select('team_id').where('repo_id', '=', repoId)),
    ]))
    .execute();
}

/** Every team of `uid` in `orgId`, with the team's own mode. */
export async function teamsOfMember(db: DB, orgId: number, uid: number): Promise<{ id: number; authorize: number }[]> {
  return db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select(['t.id', 't.authorize']).where('tu.org_id', '=', orgId).where('tu.uid', '=', uid).execute();
}

export async function teamUnitModes(db: DB, teamIds: number[]): Promise<{ team_id: number; type: string; access_mode: number }[]> {
  if (!teamIds.length) return [];
  return db.selectFrom('team_unit').select(['team_id', 'type', 'access_mode']).where('team_id', 'in', teamIds).execute();
}

export async function isOrgMember(db: DB, orgId: number, uid: number): Promise<boolean> {
  const row = await db.selectFrom('team_user').select('id').where('org_id', '=', orgId).where('uid', '=', uid).executeTakeFirst();
  return !!row;
}
