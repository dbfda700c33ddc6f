import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_admin_org_test.go: an administrator creates an
// organization on a user's behalf.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const option = (name: string, visibility: string) => ({
  username: name, full_name: 'User2\'s organization', description: 'This organization created by admin for user2',
  website: 'https://try.gitea.io', location: 'Shanghai', visibility,
});

describe('api_admin_org_test', () => {
  it('TestAPIAdminOrgCreate', async () => {
    await g.user('user2');
    const want = option('user2_org', 'private');
    const made = await g.call('admin/users/user2/orgs', { method: 'POST', auth: await g.tokenAuth('user1', 'write:admin'), json: want }, 201);
    expect(made).toMatchObject({
      name: want.username, full_name: want.full_name, description: want.description, website: want.website,
      location: want.location, visibility: 'private',
    });
    // The row exists under that name, and user2 owns it.
    const read = await g.call('orgs/user2_org', { auth: await g.basic('user2') });
    expect(read).toMatchObject({ username: 'user2_org', full_name: want.full_name });
    expect((await g.call('users/user2/orgs/user2_org/permissions', { auth: await g.basic('user2') })).is_owner).toBe(true);
  });

  it('TestAPIAdminOrgCreateBadVisibility', async () => {
    await g.user('user2');
    const res = await g.api('admin/users/user2/orgs', { method: 'POST', auth: await g.tokenAuth('user1', 'write:admin'), json: option('user2_bad_org', 'notvalid') });
    expect(res.status).toBe(422);
    expect((await g.api('orgs/user2_bad_org', { auth: await g.basic('user1') })).status).toBe(404);
  });

  it('TestAPIAdminOrgCreateNotAdmin', async () => {
    await g.user('user2');
    // Gitea's test signs in a web session without a token: the API does not take it, 401.
    const res = await g.api('admin/users/user2/orgs', { method: 'POST', json: option('user2_org_na', 'public') });
    expect(res.status).toBe(401);
    expect((await g.api('admin/users/user2/orgs', { method: 'POST', auth: await g.tokenAuth('user2'), json: option('user2_org_na', 'public') })).status).toBe(403);
    expect((await g.api('orgs/user2_org_na', { auth: await g.basic('user1') })).status).toBe(404);
  });
});
