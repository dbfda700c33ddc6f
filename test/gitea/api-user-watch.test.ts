import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import type { Auth } from '../helpers/server';

// Port of Gitea's tests/integration/api_user_watch_test.go: user1 watches user2/repo1.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const repo = 'user2/repo1';

describe('TestAPIWatch', () => {
  let token: Auth;
  let withRepo: Auth;
  const world = async () => {
    await g.repo1();
    token ??= await g.tokenAuth('user1', 'read:user');
    withRepo ??= await g.tokenAuth('user1', 'write:repository', 'read:user');
  };
  const watch = async () => { await world(); await g.call(`repos/${repo}/subscription`, { method: 'PUT', auth: withRepo }); };

  it('TestAPIWatch/Watch', async () => {
    await world();
    const res = await g.api(`repos/${repo}/subscription`, { method: 'PUT', auth: withRepo });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ subscribed: true, ignored: false });
  });

  it('TestAPIWatch/GetWatchedRepos', async () => {
    await watch();
    const res = await g.api('users/user1/subscriptions', { auth: token });
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(((await res.json()) as { full_name: string }[]).map((r) => r.full_name)).toEqual([repo]);
  });

  it('TestAPIWatch/GetMyWatchedRepos', async () => {
    await watch();
    const res = await g.api('user/subscriptions', { auth: withRepo });
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(((await res.json()) as { full_name: string }[]).map((r) => r.full_name)).toEqual([repo]);
  });

  it('TestAPIWatch/IsWatching', async () => {
    await watch();
    expect((await g.api(`repos/${repo}/subscription`, { auth: withRepo })).status).toBe(200);
    expect((await g.api(`repos/${repo}notexisting/subscription`, { auth: withRepo })).status).toBe(404);
  });

  it('TestAPIWatch/Unwatch', async () => {
    await watch();
    expect((await g.api(`repos/${repo}/subscription`, { method: 'DELETE', auth: withRepo })).status).toBe(204);
    expect((await g.api(`repos/${repo}/subscription`, { auth: withRepo })).status).toBe(404);
  });
});
