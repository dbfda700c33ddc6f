import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_packages_test.go, its REST API part (TestPackageAPI,
// TestPackageAccess, TestPackageQuota). Not ported: TestPackageCleanup (it reads and rewrites
// Gitea's package tables by hand). The quotas Gitea's test sets one by one are each tried on a
// server started with that limit at 0.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Pkg = { type: string; name: string; version: string; creator: { login: string } | null; repository: { id: number } | null };

const upload = async (on: GiteaFixtures, doer: string, owner: string, version: string, body: Uint8Array) =>
  (await on.s.request(`api/packages/${owner}/generic/test-package/${version}/file.bin`, { method: 'PUT', auth: await on.basic(doer), body })).status;

describe('api_packages_test', () => {
  const world = () => once(g, 'package', async () => {
    expect(await upload(g, 'user4', 'user4', '1.0.3', new Uint8Array())).toBe(201);
  });
  const base = 'packages/user4/generic/test-package';

  it('TestPackageAPI/ListPackages', async () => {
    await world();
    const list = (await g.call('packages/user4', { auth: await g.tokenAuth('user4', 'all') })) as Pkg[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'generic', name: 'test-package', version: '1.0.3', creator: { login: 'user4' } });
  });

  it('TestPackageAPI/GetPackage', async () => {
    await world();
    const auth = await g.tokenAuth('user4', 'all');
    await g.call('packages/user4/dummy/test-package/1.0.3', { auth }, 404);
    const p = (await g.call(`${base}/1.0.3`, { auth })) as Pkg;
    expect(p).toMatchObject({ type: 'generic', name: 'test-package', version: '1.0.3', creator: { login: 'user4' } });
  });

  it('TestPackageAPI/GetPackage/RepositoryLink', async () => {
    await world();
    const auth = await g.tokenAuth('user4', 'all');
    const pub = await repo(g, 'user4', 'public-repo');
    await repo(g, 'user4', 'private-repo', { private: true });
    // No repository yet.
    expect(((await g.call(`${base}/1.0.3`, { auth })) as Pkg).repository).toBeNull();
    // Linked to a public one: shown.
    await g.call(`${base}/-/link/public-repo`, { method: 'POST', auth }, 201);
    expect(((await g.call(`${base}/1.0.3`, { auth })) as Pkg).repository?.id).toBe(pub.id);
    // Unlinked (204, as Gitea's handler answers), then gone.
    await g.call(`${base}/-/unlink`, { method: 'POST', auth }, 204);
    expect(((await g.call(`${base}/1.0.3`, { auth })) as Pkg).repository).toBeNull();
    // Linked to a private one: shown to its owner, hidden from anonymous callers.
    await g.call(`${base}/-/link/private-repo`, { method: 'POST', auth }, 201);
    expect(((await g.call(`${base}/1.0.3`)) as Pkg).repository).toBeNull();
    await g.call(`${base}/-/unlink`, { method: 'POST', auth }, 204);
  });

  it('TestPackageAPI/ListPackageFiles', async () => {
    await world();
    const auth = await g.tokenAuth('user4', 'all');
    await g.call('packages/user4/dummy/test-package/1.0.3/files', { auth }, 404);
    const files = await g.call(`${base}/1.0.3/files`, { auth });
    expect(files).toHaveLength(1);
    // The hashes of no bytes at all.
    expect(files[0]).toMatchObject({
      size: 0, name: 'file.bin', md5: 'd41d8cd98f00b204e9800998ecf8427e', sha1: 'da39a3ee5e6b4b0d3255bfef95601890afd80709',
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      sha512: 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
    });
  });

  it('TestPackageAPI/DeletePackage', async () => {
    await world();
    const auth = await g.tokenAuth('user4', 'all');
    await g.call('packages/user4/dummy/test-package/1.0.3', { method: 'DELETE', auth }, 404);
    await g.call(`${base}/1.0.3`, { method: 'DELETE', auth }, 204);
    await g.call(`${base}/1.0.3`, { auth }, 404);
  });

  it('TestPackageAccess', async () => {
    for (const u of ['user5', 'user9']) await g.user(u);
    const one = new Uint8Array([1]);
    // user9 is inactive: nobody but a site admin writes for it, and it writes nowhere.
    expect(await upload(g, 'user5', 'user9', '1.0', one)).toBe(401);
    expect(await upload(g, 'user9', 'user9', '1.0', one)).toBe(401);
    expect(await upload(g, 'user9', 'user5', '1.0', one)).toBe(401);
    expect(await upload(g, 'user1', 'user9', '1.0', one)).toBe(201);
    expect(await upload(g, 'user1', 'user5', '1.0', one)).toBe(201);
  });

  // Over a quota a user is refused (403); site admins may always upload.
  for (const [limit, version] of [['LIMIT_TOTAL_OWNER_COUNT', '1.0'], ['LIMIT_TOTAL_OWNER_SIZE', '1.1'], ['LIMIT_SIZE_GENERIC', '1.2']] as const) {
    it(`TestPackageQuota/${limit}`, async () => {
      const limited = await startGitea({ [`HEARTH__PACKAGES__${limit}`]: '0' });
      try {
        await limited.user('user10');
        expect(await upload(limited, 'user10', 'user10', version, new Uint8Array([1]))).toBe(403);
        expect(await upload(limited, 'user1', 'user10', version, new Uint8Array([1]))).toBe(201);
      } finally {
        await limited.stop();
      }
    });
  }
});
