import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { branchHead, fileWorld, lastCommitOf } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_file_create_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const options = () => ({
  branch: 'master', new_branch: 'master', message: 'Making this new file new/file.txt',
  author: { name: 'Anne Doe', email: 'annedoe@example.com' }, committer: { name: 'John Doe', email: 'johndoe@example.com' },
  dates: { author: '2000-01-01T00:00:10Z', committer: '2000-12-31T23:59:50Z' },
  content: Buffer.from('This is new text').toString('base64'),
});

const SHA = 'a635aa942442ddfdba07468cf9661c08fbdf0ebf';

/** Gitea's getExpectedFileResponseForCreate: the content part. */
function expectedContent(full: string, treePath: string, lastCommit: string) {
  const root = g.s.hearth.config.server.root_url;
  const self = `${root}api/v1/repos/${full}/contents/${treePath}?ref=master`;
  const html = `${root}${full}/src/branch/master/${treePath}`;
  const gitUrl = `${root}api/v1/repos/${full}/git/blobs/${SHA}`;
  return {
    name: treePath.split('/').pop(), path: treePath, sha: SHA, last_commit_sha: lastCommit, size: 16, type: 'file',
    encoding: 'base64', content: 'VGhpcyBpcyBuZXcgdGV4dA==', url: self, html_url: html, git_url: gitUrl,
    download_url: `${root}${full}/raw/branch/master/${treePath}`, _links: { self, git: gitUrl, html },
  };
}

async function expectCreated(full: string, treePath: string, body: Record<string, any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const root = g.s.hearth.config.server.root_url;
  const commitId = await branchHead(g, full, 'master');
  expect(body.content).toMatchObject(expectedContent(full, treePath, await lastCommitOf(g, full, treePath)));
  expect(body.commit.sha).toBe(commitId);
  expect(body.commit.html_url).toBe(`${root}${full}/commit/${commitId}`);
  expect(body.commit.author).toMatchObject({ name: 'Anne Doe', email: 'annedoe@example.com', date: '2000-01-01T00:00:10Z' });
  expect(body.commit.committer).toMatchObject({ name: 'John Doe', email: 'johndoe@example.com', date: '2000-12-31T23:59:50Z' });
}

it('TestAPICreateFile', async () => {
  await fileWorld(g);
  const token2 = await g.tokenAuth('user2', 'write:repository', 'write:user');
  const token4 = await g.tokenAuth('user4', 'write:repository', 'write:user');
  let fileID = 0;
  const create = (full: string, treePath: string, json: object, auth: typeof token2, status: number) =>
    g.call(`repos/${full}/contents/${treePath}`, { method: 'POST', auth, json }, status);

  // In repo1, which user2 owns, with the branch named and left empty.
  for (const branch of ['master', '']) {
    const treePath = `new/file${++fileID}.txt`;
    const body = await create('user2/repo1', treePath, { ...options(), branch }, token2, 201);
    await expectCreated('user2/repo1', treePath, body);
  }

  // In a new branch.
  let treePath = `new/file${++fileID}.txt`;
  let body = await create('user2/repo1', treePath, { ...options(), new_branch: 'new_branch' }, token2, 201);
  const root = g.s.hearth.config.server.root_url;
  expect(body.content.sha).toBe(SHA);
  expect(body.content.html_url).toBe(`${root}user2/repo1/src/branch/new_branch/${treePath}`);
  expect(body.content.download_url).toBe(`${root}user2/repo1/raw/branch/new_branch/${treePath}`);
  expect(body.commit.message).toBe(`${options().message}\n`);

  // Without a message.
  treePath = `new/file${++fileID}.txt`;
  body = await create('user2/repo1', treePath, { ...options(), message: '' }, token2, 201);
  expect(body.commit.message).toBe(`Add ${treePath}\n`);

  // A file that already exists.
  body = await create('user2/repo1', 'README.md', options(), token2, 422);
  expect(body).toEqual({ message: 'repository file already exists [path: README.md]', url: `${root}api/swagger` });

  // user4 may not see the private repo16; nor may an anonymous caller.
  await create('user2/repo16', `new/file${++fileID}.txt`, options(), token4, 404);
  await create('user2/repo16', `new/file${++fileID}.txt`, options(), undefined, 404);
  // Its owner may write to it.
  await create('user2/repo16', `new/file${++fileID}.txt`, options(), token2, 201);
  // org3/repo3, which user2 may write to; not anonymous callers.
  await create('org3/repo3', `new/file${++fileID}.txt`, options(), token2, 201);
  await create('org3/repo3', `new/file${++fileID}.txt`, options(), undefined, 404);
  // user4 is no collaborator on repo1.
  await create('user2/repo1', `new/file${++fileID}.txt`, options(), token4, 403);

  // In an empty repository.
  await g.call('user/repos', { method: 'POST', auth: token2, json: { name: 'empty-repo' } }, 201);
  treePath = `new/file${++fileID}.txt`;
  body = await create('user2/empty-repo', treePath, options(), token2, 201);
  await expectCreated('user2/empty-repo', treePath, body);
});
