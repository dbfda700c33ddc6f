import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_repo_git_ref_test.go over the kit's repo1 and a tag v1.1.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_repo_git_ref_test', () => {
  it('TestAPIReposGitRefs', async () => {
    await g.repo1();
    const auth = await g.tokenAuth('user2');
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth, json: { tag_name: 'v1.1', target: 'master' } }, 201);
    for (const ref of ['refs/heads/master', 'refs/tags/v1.1']) {
      const found = await g.call(`repos/user2/repo1/git/${ref}`, { auth });
      expect(found.map((f: { ref: string }) => f.ref)).toContain(ref);
    }
    const all = (await g.call('repos/user2/repo1/git/refs', { auth })) as { ref: string }[];
    expect(all.map((f) => f.ref)).toEqual(expect.arrayContaining(['refs/heads/master', 'refs/heads/branch1', 'refs/tags/v1.1']));
    expect((await g.api('repos/user2/repo1/git/refs/heads/unknown', { auth })).status).toBe(404);
  });
});
