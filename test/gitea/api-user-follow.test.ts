import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_follow_test.go: user1 follows user4. Each step
// after Follow makes sure the follow is there, so that any of them runs alone.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const logins = (list: { login: string }[]) => list.map((u) => u.login);
const follows = () => once(g, 'follow', async () => {
  await g.user('user4');
  await g.call('user/following/user4', { method: 'PUT', auth: await g.tokenAuth('user1', 'write:user') }, 204);
});

describe('TestAPIFollow', () => {
  it('TestAPIFollow/Follow', async () => {
    await follows();
    // Following again changes nothing and still answers 204.
    await g.call('user/following/user4', { method: 'PUT', auth: await g.tokenAuth('user1', 'write:user') }, 204);
  });

  it('TestAPIFollow/ListFollowing', async () => {
    await follows();
    expect(logins(await g.call('users/user1/following', { auth: await g.tokenAuth('user1', 'read:user') }))).toEqual(['user4']);
  });

  it('TestAPIFollow/ListMyFollowing', async () => {
    await follows();
    expect(logins(await g.call('user/following', { auth: await g.tokenAuth('user1', 'read:user') }))).toEqual(['user4']);
  });

  it('TestAPIFollow/ListFollowers', async () => {
    await follows();
    expect(logins(await g.call('users/user4/followers', { auth: await g.tokenAuth('user4', 'read:user') }))).toEqual(['user1']);
  });

  it('TestAPIFollow/ListMyFollowers', async () => {
    await follows();
    expect(logins(await g.call('user/followers', { auth: await g.tokenAuth('user4', 'read:user') }))).toEqual(['user1']);
  });

  it('TestAPIFollow/CheckFollowing', async () => {
    await follows();
    const auth = await g.tokenAuth('user1', 'read:user');
    await g.call('users/user1/following/user4', { auth }, 204);
    await g.call('users/user4/following/user1', { auth }, 404);
  });

  it('TestAPIFollow/CheckMyFollowing', async () => {
    await follows();
    await g.call('user/following/user4', { auth: await g.tokenAuth('user1', 'read:user') }, 204);
    await g.call('user/following/user1', { auth: await g.tokenAuth('user4', 'read:user') }, 404);
  });

  it('TestAPIFollow/Unfollow', async () => {
    await follows();
    const auth = await g.tokenAuth('user1', 'write:user');
    await g.call('user/following/user4', { method: 'DELETE', auth }, 204);
    await g.call('user/following/user4', { auth }, 404);
    // Followed again, for the steps that may run after this one.
    await g.call('user/following/user4', { method: 'PUT', auth }, 204);
  });
});
