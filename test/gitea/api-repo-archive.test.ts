import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_archive_test.go. Gitea pins its fixture archives'
// byte counts; repo1 here has other content, so each format is checked by its signature, and the
// GitHub-like /zipball, /tarball and /bundle paths must give the very bytes of /archive.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const SIGNATURES: [string, string, string][] = [['zip', 'zipball', '504b0304'], ['tar.gz', 'tarball', '1f8b'], ['bundle', 'bundle', '23207632']];

async function bytes(path: string, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>, status = 200): Promise<Buffer> {
  const res = await g.api(path, { auth });
  expect(res.status, path).toBe(status);
  return Buffer.from(await res.arrayBuffer());
}

it('TestAPIDownloadArchive', async () => {
  await repo(g, 'user2', 'repo1');
  const auth = await g.tokenAuth('user2', 'read:repository');
  for (const [ext, , magic] of SIGNATURES) {
    const body = await bytes(`repos/user2/repo1/archive/master.${ext}`, auth);
    expect(body.subarray(0, magic.length / 2).toString('hex'), ext).toBe(magic);
  }
  // No format: 400.
  await bytes('repos/user2/repo1/archive/master', auth, 400);
});

it('TestAPIDownloadArchive2', async () => {
  await repo(g, 'user2', 'repo1');
  const auth = await g.tokenAuth('user2', 'read:repository');
  for (const [ext, ball] of SIGNATURES) {
    const viaBall = await bytes(`repos/user2/repo1/${ball}/master`, auth);
    expect(viaBall.equals(await bytes(`repos/user2/repo1/archive/master.${ext}`, auth)), ball).toBe(true);
  }
  await bytes('repos/user2/repo1/zipball/no-such-ref', auth, 404);
});
