import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { org, org6, repo, team } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_token_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const CATEGORIES = ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user'] as const;
type Category = (typeof CATEGORIES)[number];
type Level = 'read' | 'write';

/** Gitea's createAPIAccessTokenWithoutCleanUp: made by user1 with its password; the token's JSON. */
async function createToken(name: string, scopes?: string[]): Promise<{ id: number; name: string; sha1: string }> {
  const created = await g.call('users/user1/tokens', { method: 'POST', auth: await g.basic('user1'), json: { name, ...(scopes ? { scopes } : {}) } }, 201);
  const listed = (await g.call('users/user1/tokens', { auth: await g.basic('user1') })) as { id: number; name: string }[];
  expect(listed.map((t) => t.id)).toContain(created.id);
  return created;
}

async function deleteToken(id: number): Promise<void> {
  await g.call(`users/user1/tokens/${id}`, { method: 'DELETE', auth: await g.basic('user1') }, 204);
  const listed = (await g.call('users/user1/tokens', { auth: await g.basic('user1') })) as { id: number }[];
  expect(listed.map((t) => t.id)).not.toContain(id);
}

describe('api_token_test', () => {
  it('TestAPICreateAndDeleteToken', async () => {
    // Gitea's test asks for no scope, which its handler refuses since 1.22 (400 'access token
    // must have a scope'), as hearth's does: the tokens here ask for all.
    const res = await g.api('users/user1/tokens', { method: 'POST', auth: await g.basic('user1'), json: { name: 'no-scope' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('access token must have a scope');
    await deleteToken((await createToken('test-key-1', ['all'])).id);
    await deleteToken((await createToken('test-key-2', ['all'])).id);
  });

  it('TestAPIDeleteMissingToken', async () => {
    await g.call('users/user1/tokens/999999', { method: 'DELETE', auth: await g.basic('user1') }, 404);
  });

  // Each route, asked with a token holding every scope but the ones it needs, answers 403.
  const cases: [string, string, [Category, Level][]][] = [
    ['/api/v1/admin/emails', 'GET', [['admin', 'read']]],
    ['/api/v1/admin/users', 'GET', [['admin', 'read']]],
    ['/api/v1/admin/users', 'POST', [['admin', 'write']]],
    ['/api/v1/admin/users/user2', 'PATCH', [['admin', 'write']]],
    ['/api/v1/admin/users/user2/orgs', 'GET', [['admin', 'read']]],
    ['/api/v1/admin/users/user2/orgs', 'POST', [['admin', 'write']]],
    ['/api/v1/admin/orgs', 'GET', [['admin', 'read']]],
    ['/api/v1/notifications', 'GET', [['notification', 'read']]],
    ['/api/v1/notifications', 'PUT', [['notification', 'write']]],
    ['/api/v1/org/org1/repos', 'POST', [['organization', 'write'], ['repository', 'write']]],
    ['/api/v1/packages/user1/type/name/1', 'GET', [['package', 'read']]],
    ['/api/v1/packages/user1/type/name/1', 'DELETE', [['package', 'write']]],
    ['/api/v1/repos/user1/repo1', 'GET', [['repository', 'read']]],
    ['/api/v1/repos/user1/repo1', 'PATCH', [['repository', 'write']]],
    ['/api/v1/repos/user1/repo1', 'DELETE', [['repository', 'write']]],
    ['/api/v1/repos/user1/repo1/branches', 'GET', [['repository', 'read']]],
    ['/api/v1/repos/user1/repo1/archive/foo', 'GET', [['repository', 'read']]],
    ['/api/v1/repos/user1/repo1/issues', 'GET', [['issue', 'read']]],
    ['/api/v1/repos/user1/repo1/media/foo', 'GET', [['repository', 'read']]],
    ['/api/v1/repos/user1/repo1/raw/foo', 'GET', [['repository', 'read']]],
    ['/api/v1/repos/user1/repo1/teams', 'GET', [['repository', 'read']]],
    ['/api/v1/repos/user1/repo1/teams/team1', 'PUT', [['repository', 'write']]],
    ['/api/v1/repos/user1/repo1/transfer', 'POST', [['repository', 'write']]],
    ['/api/v1/repos/user2/repo2', 'GET', [['repository', 'read']]], // a private repository
    ['/api/v1/user', 'GET', [['user', 'read']]],
    ['/api/v1/user/emails', 'GET', [['user', 'read']]],
    ['/api/v1/user/emails', 'POST', [['user', 'write']]],
    ['/api/v1/user/emails', 'DELETE', [['user', 'write']]],
    ['/api/v1/user/applications/oauth2', 'GET', [['user', 'read']]],
    ['/api/v1/user/applications/oauth2', 'POST', [['user', 'write']]],
    ['/api/v1/users/search', 'GET', [['user', 'read']]],
    ['/api/v1/users/user31', 'GET', [['user', 'read']]], // a private user
    ['/api/v1/users/user31/gpg_keys', 'GET', [['user', 'read']]],
  ];

  /** Every scope short of what the route needs: a category it reads gets nothing, one it writes gets read. */
  const scopesBut = (needed: [Category, Level][]): string[] => CATEGORIES.flatMap((c) => {
    const levels = needed.filter(([n]) => n === c).map(([, l]) => l);
    if (!levels.length) return [`write:${c}`];
    return levels.includes('read') ? [] : [`read:${c}`];
  });

  for (const [url, method, needed] of cases) {
    it(`TestAPIDeniesPermissionBasedOnTokenScope/${method} ${url}`, async () => {
      await g.user('user2');
      const token = await createToken('test-token', scopesBut(needed));
      try {
        const res = await g.s.request(`${url.slice(1)}?token=${token.sha1}`, { method });
        expect(res.status, await res.text()).toBe(403);
      } finally {
        await deleteToken(token.id);
      }
    });
  }
});

describe('api_token_test (permissions)', () => {
  it('TestAPIGetTokensPermission', async () => {
    await g.user('user2');
    await g.user('user4');
    // The administrator and user2 itself read user2's tokens; user4 may not.
    expect((await g.api('users/user2/tokens', { auth: await g.basic('user1') })).status).toBe(200);
    expect((await g.api('users/user2/tokens', { auth: await g.basic('user2') })).status).toBe(200);
    expect((await g.api('users/user2/tokens', { auth: await g.basic('user4') })).status).toBe(403);
  });

  it('TestAPIDeleteTokensPermission', async () => {
    await g.user('user4');
    const user2 = await g.basic('user2');
    const make = (name: string) => g.call('users/user2/tokens', { method: 'POST', auth: user2, json: { name, scopes: ['read:user'] } }, 201);
    await make('test-key-1');
    expect((await g.api('users/user2/tokens/test-key-1', { method: 'DELETE', auth: await g.basic('user1') })).status).toBe(204);
    await make('test-key-2');
    expect((await g.api('users/user2/tokens/test-key-2', { method: 'DELETE', auth: user2 })).status).toBe(204);
    await make('test-key-3');
    expect((await g.api('users/user2/tokens/test-key-3', { method: 'DELETE', auth: await g.basic('user4') })).status).toBe(403);
    const left = (await g.call('users/user2/tokens', { auth: user2 })) as { name: string }[];
    expect(left.map((t) => t.name)).toEqual(['test-key-3']);
  });
});

describe('api_token_test (public-only)', () => {
  it('TestAPIPublicOnlyTokenOrgs', async () => {
    // user2 owns org3 (made private here, as Gitea's test does) and is on a team of the public
    // org17, which has a public and a private repository; org6 is another public organization.
    await g.org3();
    await org6(g);
    await org(g, 'org17', 'user15', { visibility: 'public' });
    const t = await team(g, 'org17', 'user15', { name: 'test_team', permission: 'write', units: ['repo.code'] }, ['user2']);
    await repo(g, 'org17', 'big_test_public_4', {}, 'user15');
    await repo(g, 'org17', 'big_test_private_4', { private: true }, 'user15');
    await g.call(`teams/${t.id}/repos/org17/big_test_private_4`, { method: 'PUT', auth: await g.basic('user15') }, 204);
    await g.call('orgs/org3', { method: 'PATCH', auth: await g.tokenAuth('user2', 'write:organization'), json: { visibility: 'private' } });

    const make = async (name: string, scopes: string[]) => ({
      token: (await g.call('users/user2/tokens', { method: 'POST', auth: await g.basic('user2'), json: { name, scopes } }, 201)).sha1 as string,
    });
    const publicOnly = await make('public-only-token', ['public-only', 'read:user', 'read:organization', 'read:repository']);
    const full = await make('no-public-only-token', ['read:user', 'read:organization', 'read:repository']);
    const visibilities = async (path: string, auth: { token: string }) =>
      Object.fromEntries(((await g.call(path, { auth })) as { name: string; visibility: string }[]).map((o) => [o.name, o.visibility]));
    const repos = async (auth: { token: string }) =>
      Object.fromEntries(((await g.call('orgs/org17/repos', { auth })) as { name: string; private: boolean }[]).map((r) => [r.name, r.private]));

    expect(Object.values(await visibilities('user/orgs', publicOnly)).every((v) => v === 'public')).toBe(true);
    expect(await visibilities('user/orgs', full)).toEqual({ org17: 'public', org3: 'private' });
    expect(await visibilities('orgs', publicOnly)).toEqual({ org17: 'public', org6: 'public' });
    expect(await repos(full)).toEqual({ big_test_private_4: true, big_test_public_4: false });
    expect(await repos(publicOnly)).toEqual({ big_test_public_4: false });
  });
});
