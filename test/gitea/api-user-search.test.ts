import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { keepEmailPrivate } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_search_test.go. The server pages by 5 as
// TestAPIUserSearchPaged mocks DefaultPagingNum; user2 keeps its address private and user31
// is a private user, as in Gitea's fixtures.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea({ HEARTH__API__DEFAULT_PAGING_NUM: '5' }); });
afterAll(async () => { await g.stop(); });

type U = { id: number; login: string; email: string; visibility: string };
const placeholder = (login: string) => `${login}@noreply.${new URL(g.s.hearth.config.server.root_url).hostname}`;

async function search(query: string, auth?: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>): Promise<U[]> {
  const body = await g.call(`users/search?${query}`, { auth });
  expect(body.ok).toBe(true);
  return body.data as U[];
}

async function world(): Promise<void> {
  for (const u of ['user2', 'user20', 'user31']) await g.user(u);
  await keepEmailPrivate(g, 'user2');
}

describe('api_user_search_test', () => {
  it('TestAPIUserSearchLoggedIn', async () => {
    await world();
    const data = await search('q=user2', await g.tokenAuth('user1', 'read:user'));
    expect(data.length).toBeGreaterThan(0);
    for (const u of data) {
      expect(u.login).toContain('user2');
      expect(u.email).not.toBe('');
    }
    const publicOnly = await search('q=user2', await g.tokenAuth('user1', 'read:user', 'public-only'));
    expect(publicOnly.length).toBeGreaterThan(0);
    for (const u of publicOnly) {
      expect(u.login).toContain('user2');
      expect(u.email).not.toBe('');
      expect(u.visibility).toBe('public');
    }
  });

  it('TestAPIUserSearchNotLoggedIn', async () => {
    await world();
    const data = await search('q=user2');
    expect(data.length).toBeGreaterThan(0);
    // Anonymous callers see the placeholder address of everyone (user2's is private besides).
    for (const u of data) {
      expect(u.login).toContain('user2');
      expect(u.email).toBe(placeholder(u.login));
    }
  });

  it('TestAPIUserSearchPaged', async () => {
    for (const u of ['user2', 'user4', 'user5', 'user8', 'user10', 'user12']) await g.user(u);
    expect(await search('limit=1')).toHaveLength(1);
    expect(await search('')).toHaveLength(5);
  });

  for (const [name, id] of [['Ghost', -1], ['gitea-actions', -2]] as const) {
    it(`TestAPIUserSearchSystemUsers/${name}`, async () => {
      const data = await search(`uid=${id}`);
      expect(data).toHaveLength(1);
      expect(data[0]).toMatchObject({ login: name, id });
    });
  }

  it('TestAPIUserSearchAdminLoggedInUserHidden', async () => {
    await world();
    const data = await search('q=user31', await g.tokenAuth('user1', 'read:user'));
    expect(data.length).toBeGreaterThan(0);
    for (const u of data) {
      expect(u.login).toContain('user31');
      expect(u.email).not.toBe('');
      expect(u.visibility).toBe('private');
    }
  });

  it('TestAPIUserSearchNotLoggedInUserHidden', async () => {
    await world();
    expect(await search('q=user31')).toEqual([]);
  });

  it('TestAPIUserSearchByEmail', async () => {
    await world();
    const query = 'q=user2@example.com';
    // A site admin finds a user by its private address.
    let data = await search(query, await g.tokenAuth('user1', 'read:user'));
    expect(data).toHaveLength(1);
    expect(data[0]!.email).toBe('user2@example.com');
    // An anonymous caller does not.
    expect(await search(query)).toEqual([]);
    // Nor does another user; the user itself does.
    expect(await search(query, await g.tokenAuth('user20', 'read:user'))).toEqual([]);
    data = await search(query, await g.tokenAuth('user2', 'read:user'));
    expect(data).toHaveLength(1);
    expect(data[0]!.email).toBe('user2@example.com');
  });
});
