import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { org, org6, repo, team } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_team_test.go. Gitea's checkTeamBean reads the row back
// through its converter; here the team is read back through GET /teams/{id}.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const ALL_UNITS = [
  'repo.actions', 'repo.code', 'repo.ext_issues', 'repo.ext_wiki', 'repo.issues', 'repo.packages', 'repo.projects',
  'repo.pulls', 'repo.releases', 'repo.wiki',
];

type Team = {
  id: number; name: string; description: string; includes_all_repositories: boolean; permission: string;
  units: string[]; units_map: Record<string, string>; organization: { id: number; name: string } | null;
};
type Want = { name: string; description: string; includes_all_repositories: boolean; permission: string; units?: string[]; units_map?: Record<string, string> };

/** Gitea's checkTeamResponse, on the answer and on the team read back. */
async function checkTeam(answer: Team, want: Want, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>): Promise<void> {
  for (const t of [answer, (await g.call(`teams/${answer.id}`, { auth })) as Team]) {
    expect(t).toMatchObject({ name: want.name, description: want.description, includes_all_repositories: want.includes_all_repositories, permission: want.permission });
    if (want.units) expect([...t.units].sort()).toEqual([...want.units].sort());
    if (want.units_map) expect(t.units_map).toEqual(want.units_map);
  }
}

describe('api_team_test', () => {
  it('TestAPITeam', async () => {
    const { teams } = await g.org3();
    // A member of the team reads it, with its organization.
    const owners = await g.call(`teams/${teams.owners}`, { auth: await g.tokenAuth('user2', 'write:organization') });
    expect(owners).toMatchObject({ id: teams.owners, name: 'Owners', organization: { name: 'org3' } });
    // Deliberate: hearth's teams have a visibility (an extension), "limited" by default, so
    // user4, of the organization but not of the team, reads it as it can list it; Gitea's 403
    // ("Must be a team member") is what a private team answers.
    const user4 = await g.tokenAuth('user4', 'read:organization');
    expect((await g.call(`teams/${teams.owners}`, { auth: user4 })).name).toBe('Owners');
    const hidden = await g.call('orgs/org3/teams', {
      method: 'POST', auth: await g.basic('user2'), json: { name: 'hidden', permission: 'read', units: ['repo.code'], visibility: 'private' },
    }, 201);
    expect((await g.call(`teams/${hidden.id}`, { auth: user4 }, 403)).message).toBe('Must be a team member');
    await g.call(`teams/${teams.owners}`, {}, 401);

    // The site admin creates, edits, reads and deletes teams of org6.
    await org6(g);
    const auth = await g.tokenAuth('user1', 'write:organization');
    const create = (json: object) => g.call('orgs/org6/teams', { method: 'POST', auth, json }, 201) as Promise<Team>;
    const edit = (id: number, json: object) => g.call(`teams/${id}`, { method: 'PATCH', auth, json }) as Promise<Team>;

    let t = await create({ name: 'team1', description: 'team one', includes_all_repositories: true, permission: 'write', units: ['repo.code', 'repo.issues'] });
    // Unit-based teams report the level none, as Gitea's.
    await checkTeam(t, { name: 'team1', description: 'team one', includes_all_repositories: true, permission: 'none', units: ['repo.code', 'repo.issues'] }, auth);
    t = await edit(t.id, { name: 'teamone', description: 'team 1', permission: 'admin', includes_all_repositories: false, units: ['repo.code', 'repo.pulls', 'repo.releases'] });
    // An admin team has every unit.
    await checkTeam(t, { name: 'teamone', description: 'team 1', includes_all_repositories: false, permission: 'admin', units: ALL_UNITS }, auth);
    t = await edit(t.id, { description: 'first team' });
    await checkTeam(t, { name: 'teamone', description: 'first team', includes_all_repositories: false, permission: 'admin', units: ALL_UNITS }, auth);
    await g.call(`teams/${t.id}`, { method: 'DELETE', auth }, 204);
    await g.call(`teams/${t.id}`, { auth }, 404);

    // Made again through units_map: unit-based too, level none.
    const map2 = { 'repo.code': 'read', 'repo.issues': 'write', 'repo.wiki': 'none' };
    t = await create({ name: 'team2', description: 'team two', includes_all_repositories: true, permission: 'write', units_map: map2 });
    await checkTeam(t, { name: 'team2', description: 'team two', includes_all_repositories: true, permission: 'none', units_map: map2 }, auth);
    const map3 = { 'repo.code': 'read', 'repo.pulls': 'read', 'repo.releases': 'write' };
    t = await edit(t.id, { name: 'teamtwo', description: 'team 1', permission: 'write', includes_all_repositories: false, units_map: map3 });
    await checkTeam(t, { name: 'teamtwo', description: 'team 1', includes_all_repositories: false, permission: 'none', units_map: map3 }, auth);
    t = await edit(t.id, { description: 'second team' });
    await checkTeam(t, { name: 'teamtwo', description: 'second team', includes_all_repositories: false, permission: 'none', units_map: map3 }, auth);
    await g.call(`teams/${t.id}`, { method: 'DELETE', auth }, 204);

    // An admin team: every unit. (Gitea's test reads its unit rows, the external ones stored at
    // read; its API, as hearth's, shows an admin team's units all at admin.)
    t = await create({ name: 'teamadmin', description: 'team admin', includes_all_repositories: true, permission: 'admin' });
    expect(t.units_map).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, 'admin'])));
    expect([...t.units].sort()).toEqual(ALL_UNITS);
    await g.call(`teams/${t.id}`, { method: 'DELETE', auth }, 204);
    await g.call(`teams/${t.id}`, { auth }, 404);
  });

  it('TestAPITeamSearch', async () => {
    await org(g, 'org17', 'user15', { visibility: 'public' });
    await team(g, 'org17', 'user15', { name: 'test_team', permission: 'write', units: ['repo.code'] }, ['user2']);
    const data = (await g.call('orgs/org17/teams/search?q=_team', { auth: await g.tokenAuth('user2', 'read:organization') })).data as Team[];
    expect(data.map((t) => t.name)).toEqual(['test_team']);
    // One outside the organization may not search its teams.
    await g.call('orgs/org17/teams/search?q=team', { auth: await g.tokenAuth('user5', 'read:organization') }, 403);
  });

  it('TestAPIGetTeamRepo', async () => {
    await org(g, 'org17', 'user15', { visibility: 'public' });
    await repo(g, 'org17', 'big_test_private_4', { private: true }, 'user15');
    const owners = ((await g.call('orgs/org17/teams', { auth: await g.basic('user15') })) as Team[]).find((t) => t.name === 'Owners')!;
    const found = await g.call(`teams/${owners.id}/repos/org17/big_test_private_4`, { auth: await g.tokenAuth('user15', 'read:organization') });
    expect(found.name).toBe('big_test_private_4');
    // Not to one outside the organization.
    await g.call(`teams/${owners.id}/repos/org17/big_test_private_4`, { auth: await g.tokenAuth('user5', 'read:organization') }, 404);
  });
});
