import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { createFile, fileWorld } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_file_delete_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const options = () => ({
  branch: 'master', new_branch: 'master', message: 'Removing the file new/file.txt',
  author: { name: 'John Doe', email: 'johndoe@example.com' }, committer: { name: 'Jane Doe', email: 'janedoe@example.com' },
  sha: '103ff9234cefeee5ec5361d22b49fbb04d385885',
} as Record<string, unknown>);

it('TestAPIDeleteFile', async () => {
  await fileWorld(g);
  const token2 = await g.tokenAuth('user2', 'write:repository');
  const token4 = await g.tokenAuth('user4', 'write:repository');
  let fileID = 0;
  const del = (full: string, treePath: string, json: object, auth: typeof token2, status: number) =>
    g.call(`repos/${full}/contents/${treePath}`, { method: 'DELETE', auth, json }, status);

  for (const branch of ['master', '']) {
    const treePath = `delete/file${++fileID}.txt`;
    await createFile(g, 'user2/repo1', treePath);
    const body = await del('user2/repo1', treePath, { ...options(), branch }, token2, 200);
    expect(body).toBeTruthy();
    expect(body.content).toBeNull();
  }

  // Deleted in a new branch.
  let treePath = `delete/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  let body = await del('user2/repo1', treePath, { ...options(), new_branch: 'new_branch' }, token2, 200);
  expect(body.content).toBeNull();
  expect(body.commit.message).toBe(`${options().message}\n`);

  // Without a message.
  treePath = `delete/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  body = await del('user2/repo1', treePath, { ...options(), message: '' }, token2, 200);
  expect(body.commit.message).toBe(`Delete ${treePath}\n`);

  // With the wrong SHA.
  treePath = `delete/file${++fileID}.txt`;
  await createFile(g, 'user2/repo1', treePath);
  await del('user2/repo1', treePath, { ...options(), sha: 'badsha' }, token2, 422);

  const step = async (full: string, auth: typeof token2, status: number) => {
    const p = `delete/file${++fileID}.txt`;
    await createFile(g, full, p);
    await del(full, p, options(), auth, status);
  };
  await step('user2/repo16', token4, 404);
  await step('user2/repo16', undefined, 404);
  await step('user2/repo16', token2, 200);
  await step('org3/repo3', token2, 200);
  await step('org3/repo3', undefined, 404);
  await step('user2/repo1', token4, 403);
});
