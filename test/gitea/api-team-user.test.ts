import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_team_user_test.go: team 1 is org3's Owners, with user2.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_team_user_test', () => {
  it('TestAPITeamUser', async () => {
    const o = await g.org3();
    const auth = await g.tokenAuth('user2', 'read:organization');
    expect((await g.api(`teams/${o.teams.owners}/members/user1`, { auth })).status).toBe(404);
    const member = await g.call(`teams/${o.teams.owners}/members/user2`, { auth });
    // Gitea compares with user2 converted for user2 itself: what GET /user answers.
    const self = await g.call('user', { auth: await g.tokenAuth('user2', 'read:user') });
    expect(Date.parse(member.created)).toBe(Date.parse(self.created));
    expect(Date.parse(member.last_login)).toBe(Date.parse(self.last_login));
    expect({ ...member, last_login: 0, created: 0 }).toEqual({ ...self, last_login: 0, created: 0 });
    expect(member.email).toBe('user2@example.com');
  });
});
