import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import type { Auth } from '../helpers/server';

// Port of Gitea's tests/integration/api_repo_lfs_locks_test.go: the git-lfs locks API under
// /{owner}/{repo}.git/info/lfs/locks, over the kit's repo1 (user2's) and org3's repo3, where
// user2 and user4 both write through team1. Gitea signs in with a web session; basic auth here.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const LFS = 'application/vnd.git-lfs+json';
const lfs = (full: string, rest: string, init: Parameters<GiteaFixtures['s']['request']>[1] = {}) =>
  g.s.request(`${full}.git/info/lfs/locks${rest}`, { ...init, headers: { Accept: LFS, 'Content-Type': LFS, ...(init.headers ?? {}) } });

type Lock = { id: string; path: string; locked_at: string; owner: { name: string } };

describe('api_repo_lfs_locks_test', () => {
  it('TestAPILFSLocksNotStarted', async () => {
    const off = await startGitea({ HEARTH__SERVER__LFS_START_SERVER: 'false' });
    try {
      await off.repo1();
      for (const [method, path] of [['GET', ''], ['POST', ''], ['GET', '/verify'], ['GET', '/10/unlock']] as const) {
        expect((await off.s.request(`user2/repo1.git/info/lfs/locks${path}`, { method })).status, `${method} ${path}`).toBe(404);
      }
    } finally {
      await off.stop();
    }
  });

  it('TestAPILFSLocksNotLogin', async () => {
    await g.repo1();
    const res = await lfs('user2/repo1', '');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe('You must have pull access to list locks');
  });

  it('TestAPILFSLocksLogged', async () => {
    await g.repo1();
    await g.org3();
    const user2 = await g.basic('user2');
    const user4 = await g.basic('user4');
    const long = `some/${'long/'.repeat(90)}path`;
    const cases: [Auth, string, string, number][] = [
      [user2, 'user2/repo1', 'foo/bar.zip', 201], [user2, 'user2/repo1', 'path/test', 201],
      [user2, 'user2/repo1', 'path/test', 409], [user2, 'user2/repo1', 'Foo/BaR.zip', 409],
      [user2, 'user2/repo1', 'Foo/Test/../subFOlder/../Relative/../BaR.zip', 409],
      [user4, 'user2/repo1', 'FoO/BaR.zip', 401], [user4, 'user2/repo1', 'path/test-user4', 401],
      [user2, 'user2/repo1', 'patH/Test-user4', 201], [user2, 'user2/repo1', long, 201],
      [user2, 'org3/repo3', 'test/foo/bar.zip', 201], [user4, 'org3/repo3', 'test/foo/bar.zip', 409],
      [user4, 'org3/repo3', 'test/foo/bar.bin', 201],
    ];
    for (const [auth, full, path, status] of cases) {
      const res = await lfs(full, '', { method: 'POST', auth, body: JSON.stringify({ path }) });
      expect(res.status, `${full} ${path}`).toBe(status);
      if (status !== 201) continue;
      const { lock } = (await res.json()) as { lock: Lock };
      // Locked at a whole second.
      expect(lock.locked_at).toMatch(/:\d\d(Z|[+-]\d\d:\d\d)$/);
      expect(Math.abs(Date.parse(lock.locked_at) - Date.now())).toBeLessThan(10_000);
    }

    const display = async (name: string) => ((await g.call(`users/${name}`)) as { full_name: string; login: string });
    const nameOf = async (name: string) => { const u = await display(name); return u.full_name.trim() || u.login; };
    const results: [Auth, string, string, number, number, number, string[]][] = [
      [user2, 'user2', 'user2/repo1', 4, 4, 0, ['user2', 'user2', 'user2', 'user2']],
      [user2, 'user2', 'org3/repo3', 2, 1, 1, ['user2', 'user4']],
      [user4, 'user4', 'org3/repo3', 2, 1, 1, ['user2', 'user4']],
    ];
    const ours: [Auth, string, string, string][] = [];
    for (const [auth, who, full, total, oursCount, theirsCount, owners] of results) {
      const list = (await (await lfs(full, '', { auth })).json()) as { locks: Lock[] };
      expect(list.locks).toHaveLength(total);
      expect(list.locks.map((l) => l.owner.name)).toEqual(await Promise.all(owners.map(nameOf)));
      const verify = await lfs(full, '/verify', { method: 'POST', auth, body: '{}' });
      expect(verify.status).toBe(200);
      const v = (await verify.json()) as { ours: Lock[]; theirs: Lock[] };
      expect(v.ours).toHaveLength(oursCount);
      expect(v.theirs).toHaveLength(theirsCount);
      for (const l of v.ours) {
        expect(l.owner.name).toBe(await nameOf(who));
        ours.push([auth, who, full, l.id]);
      }
      for (const l of v.theirs) expect(l.owner.name).not.toBe(await nameOf(who));
    }

    for (const [auth, who, full, id] of ours) {
      const res = await lfs(full, `/${id}/unlock`, { method: 'POST', auth, body: '{}' });
      expect(res.status).toBe(200);
      const { lock } = (await res.json()) as { lock: Lock };
      expect(lock.id).toBe(id);
      expect(lock.owner.name).toBe(await nameOf(who));
    }
    for (const [auth, , full] of results) {
      expect(((await (await lfs(full, '', { auth })).json()) as { locks: Lock[] }).locks).toEqual([]);
    }
  });
});
