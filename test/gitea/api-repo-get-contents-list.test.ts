import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { lastCommitOf, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_get_contents_list_test.go over the kit's repo1
// (README.md alone at its root), user2's private repo16 and org3's private repo3. Gitea's
// expected record is its fixture's; here the blob, commit and dates are read from git.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Commit = { sha: string; commit: { author: { date: string }; committer: { date: string } } };

async function expected(ref: string, refType: string, commitSha: string) {
  const root = g.s.hearth.config.server.root_url;
  const blob = (await g.call('repos/user2/repo1/contents/README.md?ref=master')) as { sha: string; size: number };
  const commit = (await g.call(`repos/user2/repo1/git/commits/${commitSha}`)) as Commit;
  const self = `${root}api/v1/repos/user2/repo1/contents/README.md?ref=${ref}`;
  const html = `${root}user2/repo1/src/${refType}/${ref}/README.md`;
  const gitUrl = `${root}api/v1/repos/user2/repo1/git/blobs/${blob.sha}`;
  return [{
    name: 'README.md', path: 'README.md', sha: blob.sha, last_commit_sha: commitSha, type: 'file', size: blob.size,
    url: self, html_url: html, git_url: gitUrl, download_url: `${root}user2/repo1/raw/${refType}/${ref}/README.md`,
    _links: { self, git: gitUrl, html },
    last_committer_date: commit.commit.committer.date, last_author_date: commit.commit.author.date,
  }];
}

describe('api_repo_get_contents_list_test', () => {
  it('TestAPIGetContentsList', async () => {
    await g.repo1();
    await g.org3();
    await repo(g, 'user2', 'repo16', { private: true });
    const token2 = await g.tokenAuth('user2', 'read:repository');
    const token4 = await g.tokenAuth('user4', 'read:repository');
    const write = await g.tokenAuth('user2', 'write:repository');
    await g.call('repos/user2/repo1/branches', { method: 'POST', auth: write, json: { new_branch_name: 'test_branch', old_branch_name: 'master' } }, 201);
    const commitId = (await g.call('repos/user2/repo1/branches/master')).commit.id as string;
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth: write, json: { tag_name: 'test_tag', target: commitId } }, 201);
    const last = await lastCommitOf(g, 'user2/repo1', 'README.md');
    const list = (path: string) => g.call(`repos/user2/repo1/${path}`);
    const shape = (l: Record<string, unknown>[]) => l.map((e) => ({ ...e, encoding: undefined, content: undefined, target: undefined, submodule_git_url: undefined }));

    expect(shape(await list('contents?ref=master'))).toMatchObject(await expected('master', 'branch', last));
    expect(shape(await list('contents/'))).toMatchObject(await expected('master', 'branch', last));
    expect(shape(await list('contents?ref=test_branch'))).toMatchObject(await expected('test_branch', 'branch', last));
    expect(shape(await list('contents/?ref=test_tag'))).toMatchObject(await expected('test_tag', 'tag', last));
    expect(shape(await list(`contents/?ref=${commitId}`))).toMatchObject(await expected(commitId, 'commit', commitId));
    expect((await g.api('repos/user2/repo1/contents/?ref=badref')).status).toBe(404);

    expect((await g.api('repos/user2/repo16/contents/', { auth: token4 })).status).toBe(404);
    expect((await g.api('repos/user2/repo16/contents/', { auth: token2 })).status).toBe(200);
    expect((await g.api('repos/org3/repo3/contents/', { auth: token2 })).status).toBe(200);
  });
});
