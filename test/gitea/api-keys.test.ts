import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';
import { makeKey } from '../helpers/ssh';

// Port of Gitea's tests/integration/api_keys_test.go: deploy keys of user2/repo1 and user
// keys found by fingerprint.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Key = { id: number; fingerprint: string; read_only?: boolean; user?: { id: number } | null };

describe('api_keys_test', () => {
  it('TestViewDeployKeysNoLogin', async () => {
    await repo(g, 'user2', 'repo1');
    await g.call('repos/user2/repo1/keys', {}, 401);
  });

  it('TestCreateDeployKeyNoLogin', async () => {
    await repo(g, 'user2', 'repo1');
    await g.call('repos/user2/repo1/keys', { method: 'POST', json: { title: 'title', key: 'key' } }, 401);
  });

  it('TestGetDeployKeyNoLogin', async () => {
    await repo(g, 'user2', 'repo1');
    await g.call('repos/user2/repo1/keys/1', {}, 401);
  });

  it('TestDeleteDeployKeyNoLogin', async () => {
    await repo(g, 'user2', 'repo1');
    await g.call('repos/user2/repo1/keys/1', { method: 'DELETE' }, 401);
  });

  it('TestCreateReadOnlyDeployKey', async () => {
    await repo(g, 'user2', 'repo1');
    await repo(g, 'user5', 'repo4');
    const auth = await g.tokenAuth('user2', 'write:repository');
    const key = makeKey('rsa', 'nocomment');
    const created = (await g.call('repos/user2/repo1/keys', {
      method: 'POST', auth, json: { title: 'read-only', key: `${key.pub}\n`, read_only: true },
    }, 201)) as Key & { title: string; key: string };
    expect(created).toMatchObject({ title: 'read-only', read_only: true, fingerprint: key.fingerprint });
    await g.call(`repos/user2/repo1/keys/${created.id}`, { auth });
    // The id of a key of another repository is not found through this one.
    await g.call(`repos/user5/repo4/keys/${created.id}`, { auth: await g.tokenAuth('user5', 'write:repository') }, 404);
  });

  it('TestCreateReadWriteDeployKey', async () => {
    await repo(g, 'user2', 'repo1');
    const key = makeKey('rsa', 'nocomment');
    const created = await g.call('repos/user2/repo1/keys', {
      method: 'POST', auth: await g.tokenAuth('user2', 'write:repository'), json: { title: 'read-write', key: `${key.pub}\n` },
    }, 201);
    expect(created).toMatchObject({ title: 'read-write', read_only: false, fingerprint: key.fingerprint });
  });

  it('TestCreateUserKey', async () => {
    await g.user('user2');
    const auth = await g.tokenAuth('user1', 'write:user');
    const key = makeKey('rsa', 'test');
    const created = (await g.call('user/keys', { method: 'POST', auth, json: { title: 'test-key', key: key.pub } }, 201)) as Key;
    expect(created.fingerprint).toBe(key.fingerprint);
    const fp = encodeURIComponent(created.fingerprint);
    const find = async (path: string, who = auth) => (await g.call(path, { auth: who })) as Key[];

    // Found by fingerprint, with its owner.
    for (const path of [`user/keys?fingerprint=${fp}`, `users/user1/keys?fingerprint=${fp}`]) {
      const [found] = await find(path);
      expect(found).toMatchObject({ id: created.id, fingerprint: created.fingerprint, user: { id: g.user1.id } });
    }
    // Not by another fingerprint, nor among another user's keys.
    expect(await find(`user/keys?fingerprint=${fp}A`)).toEqual([]);
    expect(await find(`users/user2/keys?fingerprint=${fp}`)).toEqual([]);

    // Another user finds it too, without learning whose it is.
    const auth2 = await g.tokenAuth('user2', 'write:user');
    for (const path of [`user/keys?fingerprint=${fp}`, `users/user1/keys?fingerprint=${fp}`]) {
      const [found] = await find(path, auth2);
      expect(found).toMatchObject({ id: created.id, fingerprint: created.fingerprint });
      expect(found!.user ?? null).toBeNull();
    }
    expect(await find(`users/user2/keys?fingerprint=${fp}`, auth2)).toEqual([]);
  });
});
