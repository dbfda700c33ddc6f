import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_star_test.go: user1 stars user2/repo1. Each step
// after Star makes sure the star is there, so that any of them runs alone.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const repoScope = () => g.tokenAuth('user1', 'write:repository');
const starred = () => once(g, 'star', async () => {
  await repo(g, 'user2', 'repo1');
  await g.call('user/starred/user2/repo1', { method: 'PUT', auth: await repoScope() }, 204);
});

async function list(path: string, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>): Promise<void> {
  const res = await g.api(path, { auth });
  expect(res.status).toBe(200);
  expect(res.headers.get('X-Total-Count')).toBe('1');
  expect(((await res.json()) as { full_name: string }[]).map((r) => r.full_name)).toEqual(['user2/repo1']);
}

describe('TestAPIStar', () => {
  it('TestAPIStar/Star', async () => {
    await starred();
    await g.call('user/starred/user2/repo1', { method: 'PUT', auth: await repoScope() }, 204);
  });

  it('TestAPIStar/GetStarredRepos', async () => {
    await starred();
    await list('users/user1/starred', await g.tokenAuth('user1', 'all'));
  });

  it('TestAPIStar/GetMyStarredRepos', async () => {
    await starred();
    await list('user/starred', await repoScope());
  });

  it('TestAPIStar/IsStarring', async () => {
    await starred();
    await g.call('user/starred/user2/repo1', { auth: await repoScope() }, 204);
    await g.call('user/starred/user2/repo1notexisting', { auth: await repoScope() }, 404);
  });

  it('TestAPIStar/Unstar', async () => {
    await starred();
    await g.call('user/starred/user2/repo1', { method: 'DELETE', auth: await repoScope() }, 204);
    await g.call('user/starred/user2/repo1', { auth: await repoScope() }, 404);
    // Starred again, for the steps that may run after this one.
    await g.call('user/starred/user2/repo1', { method: 'PUT', auth: await repoScope() }, 204);
  });
});

describe('TestAPIStarDisabled', () => {
  // Gitea mocks [repository] DISABLE_STARS; a server of its own here has it on.
  let off: GiteaFixtures;
  beforeAll(async () => { off = await startGitea({ HEARTH__REPOSITORY__DISABLE_STARS: 'true' }); });
  afterAll(async () => { await off.stop(); });
  const status = async (path: string, init: Parameters<GiteaFixtures['api']>[1]) => (await off.api(path, init)).status;
  const world = async () => {
    await repo(off, 'user2', 'repo1');
    return { token: await off.tokenAuth('user1', 'read:user'), withUser: await off.tokenAuth('user1', 'write:user', 'write:repository') };
  };

  it('TestAPIStarDisabled/Star', async () => {
    const { withUser } = await world();
    expect(await status('user/starred/user2/repo1', { method: 'PUT', auth: withUser })).toBe(403);
    expect(await status('user/starred/user2/repo1', { method: 'PUT', auth: await off.tokenAuth('user34', 'write:repository') })).toBe(403);
  });

  it('TestAPIStarDisabled/GetStarredRepos', async () => {
    const { token } = await world();
    expect(await status('users/user1/starred', { auth: token })).toBe(403);
  });

  it('TestAPIStarDisabled/GetMyStarredRepos', async () => {
    const { withUser } = await world();
    expect(await status('user/starred', { auth: withUser })).toBe(403);
  });

  it('TestAPIStarDisabled/IsStarring', async () => {
    const { withUser } = await world();
    expect(await status('user/starred/user2/repo1', { auth: withUser })).toBe(403);
    expect(await status('user/starred/user2/repo1notexisting', { auth: withUser })).toBe(403);
  });

  it('TestAPIStarDisabled/Unstar', async () => {
    const { withUser } = await world();
    expect(await status('user/starred/user2/repo1', { method: 'DELETE', auth: withUser })).toBe(403);
  });
});
