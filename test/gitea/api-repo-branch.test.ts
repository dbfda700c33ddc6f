import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_branch_test.go. org3's private repo3 gets a
// test_branch; Gitea's repo5 is a mirror: here org3's repo5 mirror is migrated from repo3.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' }); });
afterAll(async () => { await g.stop(); });

type Branch = { name: string; commit: { id: string } };
const names = (list: Branch[]) => list.map((b) => b.name);

/**
 * org3/repo3 with a test_branch a commit ahead of master. Branches list newest commit first (then
 * by name, as Gitea): the commit is dated a minute later, as Gitea's fixture times differ, so that
 * a push in master's second cannot put master first.
 */
const repo3 = () => once(g, 'repo3-test-branch', async () => {
  await g.org3();
  const later = new Date(Date.now() + 60_000).toISOString();
  await g.call('repos/org3/repo3/contents/test.txt', {
    method: 'POST', auth: await g.basic('user2'),
    json: { content: Buffer.from('test\n').toString('base64'), message: 'add test.txt', branch: 'master', new_branch: 'test_branch', dates: { author: later, committer: later } },
  }, 201);
});

/** org3/mirror5: a pull mirror of repo3 (Gitea's repo5). */
const mirror = () => once(g, 'mirror5', async () => {
  await repo3();
  const root = g.s.hearth.config.server.root_url;
  const user2 = await g.user('user2');
  const src = new URL('org3/repo3.git', root);
  src.username = user2.username;
  src.password = user2.password;
  await g.call('repos/migrate', {
    method: 'POST', auth: await g.basic('user2'),
    json: { clone_addr: src.toString(), repo_owner: 'org3', repo_name: 'mirror5', mirror: true, private: true },
  }, 201);
});

describe('api_repo_branch_test', () => {
  it('TestAPIRepoBranchesPlain', async () => {
    await repo3();
    const publicOnly = await g.tokenAuth('user1', 'public-only', 'write:repository');
    const token = await g.tokenAuth('user1', 'write:repository');
    const base = 'repos/org3/repo3/branches';
    // A public-only token on a private repository: 403 "token scope is limited to public repos",
    // as Gitea 1.25's checkTokenPublicOnly answers (later Gitea tests expect 404).
    expect((await g.api(base, { auth: publicOnly })).status).toBe(403);
    expect(names(await g.call(base, { auth: token }))).toEqual(['test_branch', 'master']);

    expect((await g.api(`${base}/test_branch`, { auth: publicOnly })).status).toBe(403);
    const branch = (await g.call(`${base}/test_branch`, { auth: token })) as Branch;
    expect(branch.name).toBe('test_branch');

    expect((await g.api(base, { method: 'POST', auth: publicOnly })).status).toBe(403);
    const made = await g.call(base, {
      method: 'POST', auth: token, json: { new_branch_name: 'test_branch2', old_branch_name: 'test_branch', old_ref_name: 'refs/heads/test_branch' },
    }, 201);
    expect(made.name).toBe('test_branch2');
    expect(made.commit.id).toBe(branch.commit.id);
    expect(names(await g.call(base, { auth: token }))).toEqual(['test_branch', 'test_branch2', 'master']);

    expect((await g.api(`${base}/test_branch2`, { method: 'DELETE' })).status).toBe(404);
    expect((await g.api(`${base}/test_branch2`, { method: 'DELETE', auth: publicOnly })).status).toBe(403);
    expect((await g.api(`${base}/test_branch2`, { method: 'DELETE', auth: token })).status).toBe(204);
  });

  it('TestAPIRepoBranchesMirror', async () => {
    await mirror();
    const token = await g.tokenAuth('user1', 'write:repository');
    const base = 'repos/org3/mirror5/branches';
    expect(names(await g.call(base, { auth: token }))).toEqual(expect.arrayContaining(['test_branch', 'master']));
    expect((await g.call(`${base}/test_branch`, { auth: token })).name).toBe('test_branch');
    const swagger = new URL('api/swagger', g.s.hearth.config.server.root_url).toString();
    const refused = { message: 'Git Repository is a mirror.', url: swagger };
    const post = await g.api(base, { method: 'POST', auth: token, json: { new_branch_name: 'test_branch2', old_branch_name: 'test_branch', old_ref_name: 'refs/heads/test_branch' } });
    expect(post.status).toBe(403);
    expect(await post.json()).toEqual(refused);
    const del = await g.api(`${base}/test_branch`, { method: 'DELETE', auth: token });
    expect(del.status).toBe(403);
    expect(await del.json()).toEqual(refused);
  });
});
