import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { lastCommitOf, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_get_contents_test.go over the kit's repo1,
// user2's private repo16 and org3's private repo3. Gitea's expected record is its fixture's;
// here the blob, its text and the commits are read from the repository.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

async function expected(ref: string, refType: string, commitSha: string) {
  const root = g.s.hearth.config.server.root_url;
  const text = await (await g.api('repos/user2/repo1/raw/README.md?ref=master')).text();
  const blob = (await g.call('repos/user2/repo1/git/trees/master')).tree.find((e: { path: string }) => e.path === 'README.md') as { sha: string; size: number };
  const self = `${root}api/v1/repos/user2/repo1/contents/README.md?ref=${ref}`;
  const html = `${root}user2/repo1/src/${refType}/${ref}/README.md`;
  const gitUrl = `${root}api/v1/repos/user2/repo1/git/blobs/${blob.sha}`;
  return {
    name: 'README.md', path: 'README.md', sha: blob.sha, last_commit_sha: commitSha, type: 'file', size: blob.size,
    encoding: 'base64', content: Buffer.from(text).toString('base64'),
    url: self, html_url: html, git_url: gitUrl, download_url: `${root}user2/repo1/raw/${refType}/${ref}/README.md`,
    _links: { self, git: gitUrl, html },
  };
}

describe('api_repo_get_contents_test', () => {
  it('TestAPIGetContents', async () => {
    await g.repo1();
    await g.org3();
    await repo(g, 'user2', 'repo16', { private: true });
    await g.call('repos/user2/repo16/contents/readme.md', {
      method: 'POST', auth: await g.basic('user2'), json: { content: Buffer.from('good sign\n').toString('base64') },
    }, 201);
    const token2 = await g.tokenAuth('user2');
    const token4 = await g.tokenAuth('user4');
    await g.call('repos/user2/repo1/branches', { method: 'POST', auth: token2, json: { new_branch_name: 'test_branch', old_branch_name: 'master' } }, 201);
    const commitId = (await g.call('repos/user2/repo1/branches/master')).commit.id as string;
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth: token2, json: { tag_name: 'test_tag', target: commitId } }, 201);
    const last = await lastCommitOf(g, 'user2/repo1', 'README.md');
    const read = (q: string) => g.call(`repos/user2/repo1/contents/README.md${q}`);

    expect(await read('?ref=master')).toMatchObject(await expected('master', 'branch', last));
    expect(await read('')).toMatchObject(await expected('master', 'branch', last));
    expect(await read('?ref=test_branch')).toMatchObject(await expected('test_branch', 'branch', last));
    expect(await read('?ref=test_tag')).toMatchObject(await expected('test_tag', 'tag', last));
    expect(await read(`?ref=${commitId}`)).toMatchObject(await expected(commitId, 'commit', commitId));
    expect((await g.api('repos/user2/repo1/contents/README.md?ref=badref')).status).toBe(404);

    expect((await g.api('repos/user2/repo16/contents/README.md', { auth: token4 })).status).toBe(404);
    expect((await g.api('repos/user2/repo16/contents/readme.md', { auth: token2 })).status).toBe(200);
    expect((await g.api('repos/org3/repo3/contents/README.md', { auth: token2 })).status).toBe(200);
  });
});
