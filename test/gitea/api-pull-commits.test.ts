import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_pull_commits_test.go: a pull request of two
// commits lists both, newest first as git log gives them, each with its files and verification.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

describe('api_pull_commits_test', () => {
  it('TestAPIPullCommits', async () => {
    const heads = await g.pushBranches(await g.user('user2'), 'repo1', { 'two-commits': { 'one.txt': 'one\n', 'two.txt': 'two\n' } });
    const pr = await g.call('repos/user2/repo1/pulls', { method: 'POST', auth: await g.basic('user2'), json: { head: 'two-commits', base: 'master', title: 'two commits' } }, 201);
    const commits = await g.call(`repos/user2/repo1/pulls/${pr.number}/commits`);
    expect(commits).toHaveLength(2);
    expect(commits[0].sha).toBe(heads['two-commits']);
    expect(commits[1].sha).toBe(commits[0].parents[0].sha);
    for (const c of commits) {
      expect(c.files.length).toBeGreaterThan(0);
      expect(c.commit.verification).not.toBeNull();
    }
    expect(commits.map((c: { files: { filename: string }[] }) => c.files.map((f) => f.filename))).toEqual([['two.txt'], ['one.txt']]);
  });
});
