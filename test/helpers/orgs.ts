import { addTeamUser, getOwnersTeam, insertTeam, setTeamUnits } from '../../src/models/org';
import type { TestServer } from './server';

type Creds = Pick<import('./gitea-fixtures').Creds, 'username' | 'password'>;

/** Creates an organization through the API as `owner` and returns its JSON. */
export async function createOrg(
  s: TestServer, owner: Creds, name: string, extra: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: number }> {
  const res = await s.request('api/v1/orgs', {
    method: 'POST', auth: { basic: [owner.username, owner.password] }, json: { username: name, ...extra },
  });
  if (res.status !== 201) throw new Error(`create org ${name}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown> & { id: number };
}

/**
 * Adds a team straight in the database (test set-up only: the teams API is another area's),
 * with every unit at the team's mode, and puts the given users on it.
 */
export async function addTeam(
  s: TestServer, orgId: number, name: string, opts: { mode?: number; canCreate?: boolean; allRepos?: boolean; uids?: number[] } = {},
): Promise<number> {
  const db = s.hearth.db;
  const mode = opts.mode ?? 2;
  const team = await insertTeam(db, {
    org_id: orgId, name, authorize: mode, includes_all_repositories: !!opts.allRepos,
    can_create_org_repo: !!opts.canCreate, now: Math.floor(Date.now() / 1000),
  });
  await setTeamUnits(db, team, { 'repo.code': mode, 'repo.issues': mode, 'repo.pulls': mode, 'repo.releases': mode, 'repo.wiki': mode });
  for (const uid of opts.uids ?? []) await addTeamUser(db, team, uid);
  return team.id;
}

/** Puts a user on the organization's Owners team. */
export async function addOwner(s: TestServer, orgId: number, uid: number): Promise<void> {
  const team = await getOwnersTeam(s.hearth.db, orgId);
  if (!team) throw new Error('no Owners team');
  await addTeamUser(s.hearth.db, team, uid);
}
