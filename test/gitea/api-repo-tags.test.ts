import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { branchHead, once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_tags_test.go: repo1's lightweight tag v1.1 on its
// first commit, then an annotated tag made through the API, read, deleted.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Tag = { name: string; message: string; commit: { sha: string; url: string }; zipball_url: string; tarball_url: string };

it('TestAPIRepoTags', async () => {
  const first = await once(g, 'tags', async () => {
    await repo(g, 'user2', 'repo1');
    const sha = await branchHead(g, 'user2/repo1', 'master');
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth: await g.basic('user2'), json: { tag_name: 'v1.1', target: sha } }, 201);
    return sha;
  });
  const root = g.s.hearth.config.server.root_url;
  const auth = await g.tokenAuth('user2', 'write:repository');
  const list = async () => (await g.call('repos/user2/repo1/tags', { auth })) as Tag[];

  const [v11] = await list();
  // A lightweight tag shows its commit's message.
  const { message } = await g.call(`repos/user2/repo1/git/commits/${first}`, { auth }).then((c) => c.commit);
  expect(v11).toMatchObject({
    name: 'v1.1', message: message.trim(), commit: { sha: first, url: `${root}api/v1/repos/user2/repo1/git/commits/${first}` },
    zipball_url: `${root}user2/repo1/archive/v1.1.zip`, tarball_url: `${root}user2/repo1/archive/v1.1.tar.gz`,
  });

  const made = (await g.call('repos/user2/repo1/tags', { method: 'POST', auth, json: { tag_name: 'gitea/22', message: 'nice!\nand some text', target: '' } }, 201)) as Tag;
  try {
    const tags = await list();
    expect(tags).toHaveLength(2);
    expect(tags.find((t) => t.name !== 'v1.1')).toMatchObject({ name: made.name, message: 'nice!\nand some text', commit: { sha: made.commit.sha } });
    // Read back, the same.
    expect(await g.call('repos/user2/repo1/tags/gitea/22', { auth })).toEqual(made);
  } finally {
    await g.call('repos/user2/repo1/tags/gitea/22', { method: 'DELETE', auth }, 204);
  }
  await g.call('repos/user2/repo1/tags/gitea/22', { auth }, 404);
});
