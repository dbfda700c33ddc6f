import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_pull_update_test.go: a pull request from a fork
// (org26's) one commit behind its base and one ahead, brought up to date by a merge (then two
// commits ahead) or a rebase (then one). Gitea counts with GetDiverging; here the pull's
// commits and whether the base's new file reached the head branch tell the same.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.user('user2');
  await g.call('orgs', { method: 'POST', auth: await g.basic('user2'), json: { username: 'org26', visibility: 'public' } }, 201);
});
afterAll(async () => { await g.stop(); });

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Gitea's createOutdatedPR, under a repository name of its own. */
async function outdatedPull(name: string): Promise<number> {
  const auth = await g.basic('user2');
  await g.call('user/repos', { method: 'POST', auth, json: { name, auto_init: true, default_branch: 'master', license: 'MIT', readme: 'Default' } }, 201);
  await g.call(`repos/user2/${name}/forks`, { method: 'POST', auth, json: { organization: 'org26', name } }, 202);
  await g.call(`repos/user2/${name}/contents/File_A`, { method: 'POST', auth, json: { content: b64('File A'), message: 'Add File A', branch: 'master' } }, 201);
  await g.call(`repos/org26/${name}/contents/File_B`, { method: 'POST', auth, json: { content: b64('File B'), message: 'Add File on PR branch', branch: 'master', new_branch: 'newBranch' } }, 201);
  const pr = await g.call(`repos/user2/${name}/pulls`, { method: 'POST', auth, json: { head: 'org26:newBranch', base: 'master', title: 'Test Pull -to-update-' } }, 201);
  return pr.number as number;
}
const behind = async (name: string) => (await g.api(`repos/org26/${name}/contents/File_A?ref=newBranch`)).status === 404 ? 1 : 0;
const ahead = async (name: string, n: number) => ((await g.call(`repos/user2/${name}/pulls/${n}/commits`)) as unknown[]).length;

describe('api_pull_update_test', () => {
  it('TestAPIPullUpdate', async () => {
    const n = await outdatedPull('repo-pr-update');
    expect([await behind('repo-pr-update'), await ahead('repo-pr-update', n)]).toEqual([1, 1]);
    const auth = await g.tokenAuth('user2', 'write:repository');
    expect((await g.api(`repos/user2/repo-pr-update/pulls/${n}/update`, { method: 'POST', auth })).status).toBe(200);
    expect([await behind('repo-pr-update'), await ahead('repo-pr-update', n)]).toEqual([0, 2]);
  });

  it('TestAPIPullUpdateByRebase', async () => {
    const n = await outdatedPull('repo-pr-rebase');
    expect([await behind('repo-pr-rebase'), await ahead('repo-pr-rebase', n)]).toEqual([1, 1]);
    const auth = await g.tokenAuth('user2', 'write:repository');
    expect((await g.api(`repos/user2/repo-pr-rebase/pulls/${n}/update?style=rebase`, { method: 'POST', auth })).status).toBe(200);
    expect([await behind('repo-pr-rebase'), await ahead('repo-pr-rebase', n)]).toEqual([0, 1]);
  });
});
