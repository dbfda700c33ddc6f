import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Malformed requests to the repository registries answer 4xx, never 500: broken paths, bodies
// that are no packages, bad JSON, unknown revisions, empty uploads.

let s: TestServer;
let token: string;
let owner: string;

beforeAll(async () => {
  s = await startTestServer();
  const u = await createUser(s, 'bad-input');
  owner = u.username;
  token = await createToken(s, u, ['write:package']);
});
afterAll(async () => { await s.stop(); });

const CASES: [string, string, string | undefined, Record<string, string>?][] = [
  ['PUT', 'debian/pool/stable/main/upload', ''],
  ['PUT', 'debian/pool/stable/main/upload', '!<arch>\n'],
  ['GET', 'debian/dists/stable/by-hash/SHA256/zz', undefined],
  ['GET', 'debian/dists/stable/main/binary-amd64/by-hash/MD99/00', undefined],
  ['GET', 'debian/pool/stable/main/x_1_amd64.deb', undefined],
  ['PUT', 'rpm/upload', ''],
  ['PUT', 'rpm/%E0%A4%A/upload', 'x'],
  ['GET', 'rpm/a/repodata/primary.xml.gz', undefined],
  ['DELETE', 'rpm/a/package/x/1/noarch', undefined],
  ['PUT', 'arch', ''],
  ['PUT', 'arch/core', '\x28\xb5\x2f\xfd garbage'],
  ['GET', 'arch/core/x86_64/core.db', undefined],
  ['GET', 'arch/core/x86_64/nothing-1-1-x86_64.pkg.tar.zst', undefined],
  ['PUT', 'alpine/v3/main', ''],
  ['PUT', 'alpine/v3/main', '\x1f\x8b\x08\x00garbage'],
  ['GET', 'alpine/v3/main/x86_64/APKINDEX.tar.gz', undefined],
  ['PUT', 'conda/x.conda', 'PK\x03\x04 nope'],
  ['PUT', 'conda/chan/x-1-0.tar.bz2', 'BZh9 nope'],
  ['GET', 'conda/chan/noarch/x-1-0.tar.bz2', undefined],
  ['PUT', 'cran/src', '\x1f\x8b\x08\x00garbage'],
  ['PUT', 'cran/bin?platform=..&rversion=4', 'PK'],
  ['GET', 'cran/src/contrib/PACKAGES.rds', undefined],
  ['POST', 'conan/v1/conans/a/1.0/_/_/upload_urls', '{not json', { 'Content-Type': 'application/json' }],
  ['PUT', 'conan/v2/conans/a/1.0/_/_/revisions/r%2F1/files/conanfile.py', 'x'],
  ['GET', 'conan/v2/conans/a/1.0/_/_/latest', undefined],
  ['GET', 'conan/v2/conans/a/1.0/_/_/revisions/r1/packages/p1/latest', undefined],
  ['PUT', 'nuget/', 'PK\x03\x04 nope'],
  ['PUT', 'nuget/symbolpackage', ''],
  ['GET', "nuget/Packages(Id='x',Version='1')", undefined],
  ['GET', 'nuget/FindPackagesById()?id=%27x%27', undefined],
  ['GET', 'nuget/registration/x/index.json', undefined],
  ['GET', 'nuget/symbols/a.pdb/00000000000000000000000000000000ffffffff/b.pdb', undefined],
];

describe('repository registries on bad input', () => {
  it('answer each malformed request with a 4xx (or an empty 200 listing), never a 500', async () => {
    for (const [method, path, body, headers] of CASES) {
      const res = await s.request(`api/packages/${owner}/${path}`, { method, body, auth: { token }, headers });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      if (method !== 'GET') expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
  });
});
