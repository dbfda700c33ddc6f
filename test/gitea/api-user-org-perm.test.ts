import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { org, org3Creator, org6, team } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_org_perm_test.go. The kit's org3 stands for
// Gitea's user3 (owned by user2, team1 gives user4 write); user28 is on an admin team of org3
// that may create repositories and on an admin team of org6 that may not; user24 reads org25.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Perms = { is_owner: boolean; is_admin: boolean; can_write: boolean; can_read: boolean; can_create_repository: boolean };

async function world(): Promise<void> {
  await g.org3();
  await org3Creator(g);
  await team(g, 'org3', 'user2', { name: 'admins28', permission: 'admin', can_create_org_repo: true, units: ['repo.code'] }, ['user28']);
  await org6(g);
  await team(g, 'org6', 'user5', { name: 'admins28', permission: 'admin', can_create_org_repo: false, units: ['repo.code'] }, ['user28']);
  await org(g, 'org25', 'user1', { visibility: 'public' });
  await team(g, 'org25', 'user1', { name: 'readers', permission: 'read', can_create_org_repo: false, units: ['repo.code'] }, ['user24']);
}

/** Gitea's sampleTest: `login` asks what `user` may do in `orgName`. */
async function permsOf(login: string, user: string, orgName: string): Promise<Perms> {
  await world();
  const auth = await g.tokenAuth(login, 'read:organization', 'read:user');
  return g.call(`users/${user}/orgs/${orgName}/permissions`, { auth });
}

const none = { is_owner: false, is_admin: false, can_write: false, can_read: false, can_create_repository: false };

describe('api_user_org_perm_test', () => {
  it('TestTokenNeeded', async () => {
    await world();
    expect((await g.api('users/user1/orgs/org6/permissions')).status).toBe(401);
  });

  it('TestWithOwnerUser', async () => {
    expect(await permsOf('user2', 'user2', 'org3')).toEqual({ is_owner: true, is_admin: true, can_write: true, can_read: true, can_create_repository: true });
  });

  it('TestCanWriteUser', async () => {
    expect(await permsOf('user4', 'user4', 'org3')).toEqual({ ...none, can_write: true, can_read: true });
  });

  it('TestAdminUser', async () => {
    expect(await permsOf('user1', 'user28', 'org3')).toEqual({ ...none, is_admin: true, can_write: true, can_read: true, can_create_repository: true });
  });

  it('TestAdminCanNotCreateRepo', async () => {
    expect(await permsOf('user1', 'user28', 'org6')).toEqual({ ...none, is_admin: true, can_write: true, can_read: true });
  });

  it('TestCanReadUser', async () => {
    expect(await permsOf('user1', 'user24', 'org25')).toEqual({ ...none, can_read: true });
  });

  it('TestUnknowUser', async () => {
    await world();
    const res = await g.api('users/unknow/orgs/org25/permissions', { auth: await g.tokenAuth('user1', 'read:user', 'read:organization') });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('user redirect does not exist [name: unknow]');
  });

  it('TestUnknowOrganization', async () => {
    await world();
    const res = await g.api('users/user1/orgs/unknow/permissions', { auth: await g.tokenAuth('user1', 'read:user', 'read:organization') });
    expect(res.status).toBe(404);
    // deliberate: Gitea's message is its internal function's name ("GetUserByName"); hearth names what is missing.
    expect(((await res.json()) as { message: string }).message).toBe('org does not exist [id: 0, name: unknow]');
  });
});
