import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_git_trees_test.go: the kit's public repo1 (here
// with a second file beside README.md, as Gitea's tree holds File-WoW and README.md), user2's
// private repo16, org3's private repo3 that user2 reaches through team1 and user4 does not.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const treeOf = async (full: string, ref: string) =>
  (await g.call(`repos/${full}/git/trees/${ref}`, { auth: await g.basic('user1') })).sha as string;

describe('api_repo_git_trees_test', () => {
  it('TestAPIReposGitTrees', async () => {
    const r = await g.repo1();
    const o = await g.org3();
    await repo(g, 'user2', 'repo16', { private: true });
    await g.pushBranches(r.owner, 'repo1', { trees: { 'File-WoW': 'wow\n' } });
    const tree = await treeOf('user2/repo1', 'trees');
    const [repo16Tree, repo3Tree] = [await treeOf('user2/repo16', 'master'), await treeOf('org3/repo3', 'master')];
    expect(o.repo3.id).toBeGreaterThan(0);

    const token = await g.tokenAuth('user2', 'read:repository');
    expect((await g.api('repos/user2/repo1/git/trees/master')).status).toBe(200);

    const page1 = await g.call(`repos/user2/repo1/git/trees/${tree}?per_page=1`);
    expect(page1.truncated).toBe(true);
    expect(page1.tree.map((e: { path: string }) => e.path)).toEqual(['File-WoW']);
    const page2 = await g.call(`repos/user2/repo1/git/trees/${tree}?page=2&per_page=1`);
    expect(page2.truncated).toBe(false);
    expect(page2.tree.map((e: { path: string }) => e.path)).toEqual(['README.md']);

    for (const ref of ['master', repo16Tree]) expect((await g.api(`repos/user2/repo16/git/trees/${ref}`)).status).toBe(404);
    expect((await g.api(`repos/user2/repo16/git/trees/${repo16Tree}`, { auth: token })).status).toBe(200);
    expect((await g.api(`repos/user2/repo1/git/trees/${'0'.repeat(40)}`)).status).toBe(400);
    expect((await g.api(`repos/org3/repo3/git/trees/${repo3Tree}`, { auth: token })).status).toBe(200);
    expect((await g.api(`repos/org3/repo3/git/trees/${repo3Tree}`)).status).toBe(404);
    // user4 is on team1 in the kit (Gitea's user4 is not): user5 stands for the outsider.
    expect((await g.api(`repos/org3/repo3/git/trees/${repo3Tree}`, { auth: await g.tokenAuth('user5') })).status).toBe(404);
  });
});
