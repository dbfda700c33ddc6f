import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_compare_test.go. Gitea's repo20 has branches
// add-csv and remove-files-b two commits apart: here both grow from master, remove-files-b
// two commits past add-csv.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const repo20 = () => once(g, 'repo20', async () => {
  const user2 = await g.user('user2');
  await repo(g, 'user2', 'repo20');
  const a = await g.pushBranches(user2, 'repo20', { 'add-csv': { 'data.csv': 'a,b\n' } });
  const b = await g.pushBranches(user2, 'repo20', { 'remove-files-b': { 'one.txt': '1\n', 'two.txt': '2\n' } }, 'user2', 'add-csv');
  return { addCsv: a['add-csv'], removeFilesB: b['remove-files-b'] };
});

describe('TestAPICompareBranches', () => {
  it('TestAPICompareBranches/CompareBranches', async () => {
    await repo20();
    const body = await g.call('repos/user2/repo20/compare/add-csv...remove-files-b', { auth: await g.tokenAuth('user2', 'write:repository') });
    expect(body.total_commits).toBe(2);
    expect(body.commits).toHaveLength(2);
  });

  it('TestAPICompareBranches/CompareCommits', async () => {
    const r = await repo20();
    const list = (await g.call('repos/user2/repo20/commits?sha=remove-files-b', { auth: await g.basic('user2') })) as { sha: string }[];
    // The first of remove-files-b's two commits against its last, by 20-hex-digit prefixes as Gitea's test.
    const from = list[1]!.sha.slice(0, 20);
    const body = await g.call(`repos/user2/repo20/compare/${from}...${r.removeFilesB.slice(0, 20)}`, { auth: await g.tokenAuth('user2', 'write:repository') });
    expect(body.total_commits).toBe(1);
    expect(body.commits).toHaveLength(1);
    expect(body.commits[0].sha).toBe(r.removeFilesB);
  });
});
