import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_info_test.go. org3's address is Gitea's fixture
// one, set through the organization edit.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const world = () => once(g, 'info', async () => {
  await g.user('user31');
  await g.org3();
  await g.call('orgs/org3', { method: 'PATCH', auth: await g.basic('user2'), json: { email: 'org3@example.com' } });
});

describe('TestAPIUserInfo', () => {
  it('TestAPIUserInfo/GetInfo', async () => {
    await world();
    const auth = await g.tokenAuth('user1', 'read:user');
    // user31 is private: seen with a token, not without.
    expect((await g.call('users/user31', { auth })).login).toBe('user31');
    await g.call('users/user31', {}, 404);
    // An anonymous caller gets the placeholder address; a signed-in one the real one.
    const host = new URL(g.s.hearth.config.server.root_url).hostname;
    expect((await g.call('users/org3')).email).toBe(`org3@noreply.${host}`);
    expect((await g.call('users/org3', { auth })).email).toBe('org3@example.com');
  });

  it('TestAPIUserInfo/GetAuthenticatedUser', async () => {
    expect((await g.call('user', { auth: await g.tokenAuth('user1', 'read:user') })).login).toBe('user1');
  });
});
