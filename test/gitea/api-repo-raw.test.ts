import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { branchHead, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_raw_test.go: README.md of repo1 by branch, tag,
// commit, and on the default branch.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

it('TestAPIReposRaw', async () => {
  await repo(g, 'user2', 'repo1');
  const commit = await branchHead(g, 'user2/repo1', 'master');
  await g.call('repos/user2/repo1/tags', { method: 'POST', auth: await g.basic('user2'), json: { tag_name: 'v1.1', target: commit } }, 201);
  const auth = await g.tokenAuth('user2', 'write:repository');
  const readme = (await g.call('repos/user2/repo1/contents/README.md', { auth })).content as string;
  for (const path of ['master/README.md', 'v1.1/README.md', `${commit}/README.md`, 'README.md']) {
    const res = await g.api(`repos/user2/repo1/raw/${path}`, { auth });
    expect(res.status, path).toBe(200);
    expect(res.headers.get('x-gitea-object-type'), path).toBe('file');
    expect(Buffer.from(await res.arrayBuffer()).toString('base64'), path).toBe(readme);
  }
});
