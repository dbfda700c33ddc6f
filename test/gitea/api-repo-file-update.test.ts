import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { branchHead, createFile, fileWorld, lastCommitOf } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_file_update_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const OLD_SHA = '103ff9234cefeee5ec5361d22b49fbb04d385885';
const NEW_SHA = '08bd14b2e2852529157324de9c226b3364e76136';
const options = () => ({
  branch: 'master', new_branch: 'master', message: 'My update of new/file.txt',
  author: { name: 'John Doe', email: 'johndoe@example.com' }, committer: { name: 'Anne Doe', email: 'annedoe@example.com' },
  sha: OLD_SHA, content: Buffer.from('This is updated text').toString('base64'),
} as Record<string, unknown>);

it('TestAPIUpdateFile', async () => {
  await fileWorld(g);
  const root = g.s.hearth.config.server.root_url;
  const token2 = await g.tokenAuth('user2', 'write:repository');
  const token4 = await g.tokenAuth('user4', 'write:repository');
  let fileID = 0;
  const update = (full: string, treePath: string, json: object, auth: typeof token2, status: number) =>
    g.call(`repos/${full}/contents/${treePath}`, { method: 'PUT', auth, json }, status);

  for (const branch of ['master', '']) {
    const treePath = `update/file${++fileID}.txt`;
    await createFile(g, 'user2/repo1', treePath);
    const body = await update('user2/repo1', treePath, { ...options(), branch }, token2, 200);
    const commitId = await branchHead(g, 'user2/repo1', 'master');
    const self = `${root}api/v1/repos/user2/repo1/contents/${treePath}?ref=master`;
    const html = `${root}user2/repo1/src/branch/master/${treePath}`;
    const gitUrl = `${root}api/v1/repos/user2/repo1/git/blobs/${NEW_SHA}`;
    expect(body.content).toMatchObject({
      name: treePath.split('/').pop(), path: treePath, sha: NEW_SHA, last_commit_sha: await lastCommitOf(g, 'user2/repo1', treePath),
      type: 'file', size: 20, encoding: 'base64', content: 'VGhpcyBpcyB1cGRhdGVkIHRleHQ=', url: self, html_url: html, git_url: gitUrl,
      download_url: `${root}user2/repo1/raw/branch/master/${treePath}`, _links: { self, git: gitUrl, html },
    });
    expect(body.commit.sha).toBe(commitId);
    expect(body.commit.html_url).toBe(`${root}user2/repo1/commit/${commitId}`);
    expect(body.commit.author).toMatchObject({ name: 'John Doe', email: 'johndoe@example.com' });
  }

  // In a new branch.
  let treePath = `update/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  let body = await update('user2/repo1', treePath, { ...options(), new_branch: 'new_branch' }, token2, 200);
  expect(body.content.sha).toBe(NEW_SHA);
  expect(body.content.html_url).toBe(`${root}user2/repo1/src/branch/new_branch/${treePath}`);
  expect(body.content.download_url).toBe(`${root}user2/repo1/raw/branch/new_branch/${treePath}`);
  expect(body.commit.message).toBe(`${options().message}\n`);

  // Updated and renamed.
  treePath = `update/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  body = await update('user2/repo1', `rename/${treePath}`, { ...options(), from_path: treePath }, token2, 200);
  expect(body.content.sha).toBe(NEW_SHA);
  expect(body.content.html_url).toBe(`${root}user2/repo1/src/branch/master/rename/${treePath}`);
  expect(body.content.download_url).toBe(`${root}user2/repo1/raw/branch/master/rename/${treePath}`);

  // Without a message.
  treePath = `update/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  body = await update('user2/repo1', treePath, { ...options(), message: '' }, token2, 200);
  expect(body.commit.message).toBe(`Update ${treePath}\n`);

  // With the wrong SHA.
  treePath = `update/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  body = await update('user2/repo1', treePath, { ...options(), sha: 'badsha' }, token2, 422);
  expect(body).toEqual({ message: `sha does not match [given: badsha, expected: ${OLD_SHA}]`, url: `${root}api/swagger` });

  const step = async (full: string, auth: typeof token2, status: number) => {
    const p = `update/file${++fileID}.txt`;
    await createFile(g, full, p);
    await update(full, p, options(), auth, status);
  };
  await step('user2/repo16', token4, 404);
  await step('user2/repo16', undefined, 404);
  await step('user2/repo16', token2, 200);
  await step('org3/repo3', token2, 200);
  await step('org3/repo3', undefined, 404);
  await step('user2/repo1', token4, 403);
});
