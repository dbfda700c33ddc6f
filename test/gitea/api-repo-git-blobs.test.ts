import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { branchHead, fileWorld } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_git_blobs_test.go. Gitea's "repo1 README" id is in
// fact repo1's first commit: /git/blobs reads any object, a commit's raw text too. In the kit
// user4 is on org3's team1 and reads repo3: the stranger here is user5.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const readmeOf = async (full: string) =>
  ((await g.call(`repos/${full}/contents/README.md`, { auth: await g.basic('user2') })) as { sha: string }).sha;

it('TestAPIReposGitBlobs', async () => {
  await fileWorld(g);
  await g.user('user5');
  const token = await g.tokenAuth('user2', 'read:repository');
  const blobs = (full: string, sha: string) => `repos/${full}/git/blobs/${sha}`;

  // A public repository: anyone reads; a commit's id gives the commit's raw text.
  const commit = await branchHead(g, 'user2/repo1', 'master');
  const body = await g.call(blobs('user2/repo1', commit));
  const raw = execFileSync('git', ['cat-file', 'commit', commit], { cwd: `${g.s.hearth.config.repository.root}/user2/repo1.git` });
  expect(body).toMatchObject({ encoding: 'base64', sha: commit, size: raw.length, content: raw.toString('base64') });
  expect(Buffer.from(body.content, 'base64').toString()).toMatch(/^tree [0-9a-f]{40}\n/);

  // The private repo16: not without a token; with its owner's, yes.
  const readme16 = await readmeOf('user2/repo16');
  await g.call(blobs('user2/repo16', readme16), {}, 404);
  await g.call(blobs('user2/repo16', readme16), { auth: token });

  // An id that names nothing.
  await g.call(blobs('user2/repo1', '0000000000000000000000000000000000000000'), {}, 400);

  // org3/repo3, which user2 reads; not anonymous callers, nor a stranger.
  const readme3 = await readmeOf('org3/repo3');
  await g.call(blobs('org3/repo3', readme3), { auth: token });
  await g.call(blobs('org3/repo3', readme3), {}, 404);
  await g.call(blobs('org3/repo3', readme3), { auth: await g.tokenAuth('user5', 'all') }, 404);
});
