import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo, team } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_teams_test.go. org3's public repo21 is reached by
// the Owners team and by test_team (write on issues only); team1 does not reach it.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Team = { id: number; name: string; can_create_org_repo: boolean; units: string[]; permission: string };

describe('api_repo_teams_test', () => {
  it('TestAPIRepoTeams', async () => {
    const o = await g.org3();
    await repo(g, 'org3', 'repo21', {}, 'user2');
    const testTeam = await team(g, 'org3', 'user2', { name: 'test_team', permission: 'write', units: ['repo.issues'], includes_all_repositories: false });
    await g.call(`teams/${testTeam.id}/repos/org3/repo21`, { method: 'PUT', auth: await g.basic('user2') }, 204);
    const owners = (await g.call(`teams/${o.teams.owners}`, { auth: await g.basic('user2') })) as Team;

    const user4 = await g.tokenAuth('user4', 'write:repository', 'read:organization');
    const teams = (await g.call('repos/org3/repo21/teams', { auth: user4 })) as Team[];
    expect(teams).toHaveLength(2);
    expect(teams[0]).toMatchObject({ name: 'Owners', can_create_org_repo: true, permission: 'owner', units: owners.units });
    expect(teams[0]!.units).toContain('repo.code');
    // Gitea's fixture stores test_team's access mode (write) in its database; made through the API,
    // as here, Gitea 1.25 keeps only the units' modes and reports `none` (its ParseAccessMode takes
    // none or admin for a team), as hearth does.
    expect(teams[1]).toMatchObject({ name: 'test_team', can_create_org_repo: false, units: ['repo.issues'], permission: 'none' });

    expect(await g.call('repos/org3/repo21/teams/Test_Team', { auth: user4 })).toEqual(teams[1]);
    expect((await g.api('repos/org3/repo21/teams/NonExistingTeam', { auth: user4 })).status).toBe(404);

    expect((await g.api('repos/org3/repo21/teams/team1', { method: 'PUT', auth: user4 })).status).toBe(403);
    const user2 = await g.tokenAuth('user2', 'write:repository', 'read:organization');
    expect((await g.api('repos/org3/repo21/teams/team1', { method: 'PUT', auth: user2 })).status).toBe(204);
    expect((await g.api('repos/org3/repo21/teams/team1', { method: 'PUT', auth: user2 })).status).toBe(422);
    expect((await g.api('repos/org3/repo21/teams/team1', { method: 'DELETE', auth: user2 })).status).toBe(204);
    expect((await g.api('repos/org3/repo21/teams/team1', { method: 'DELETE', auth: user2 })).status).toBe(422);
  });
});
