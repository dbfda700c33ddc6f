import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { collaborator, once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_branch_test.go. The tests Gitea runs on a fresh
// instance (onGiteaRun) start their own server here too. Not ported:
// TestAPICreateBranchWithSyncBranches (it empties Gitea's branch table by hand first).

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

/** user2/repo1 with the branches Gitea's fixture gives it: master, branch2 and feature/1. */
function repo1(on: GiteaFixtures) {
  return once(on, 'branch-repo1', async () => {
    await repo(on, 'user2', 'repo1');
    await on.pushBranches(await on.user('user2'), 'repo1', { branch2: { 'branch2.txt': 'b2\n' }, 'feature/1': { 'feature.txt': 'f1\n' } });
  });
}

const token = (on: GiteaFixtures, who: string, scope: string) => on.tokenAuth(who, scope);

async function createProtection(on: GiteaFixtures, rule: string, priority: number, status: number, extra: object = {}): Promise<void> {
  const body = await on.call('repos/user2/repo1/branch_protections', {
    method: 'POST', auth: await token(on, 'user2', 'write:repository'), json: { rule_name: rule, ...extra },
  }, status);
  if (status === 201) expect(body).toMatchObject({ rule_name: rule, priority });
}

async function getProtection(rule: string, status: number) {
  const body = await g.call(`repos/user2/repo1/branch_protections/${rule}`, { auth: await token(g, 'user2', 'read:repository') }, status);
  if (status === 200) expect(body.rule_name).toBe(rule);
  return body;
}

async function editProtection(rule: string, json: object): Promise<void> {
  const body = await g.call(`repos/user2/repo1/branch_protections/${rule}`, { method: 'PATCH', auth: await token(g, 'user2', 'write:repository'), json });
  expect(body.rule_name).toBe(rule);
}

const deleteBranch = async (name: string, status: number) =>
  g.call(`repos/user2/repo1/branches/${name}`, { method: 'DELETE', auth: await token(g, 'user2', 'write:repository') }, status);

describe('api_branch_test', () => {
  it('TestAPIGetBranch', async () => {
    await repo1(g);
    const auth = await token(g, 'user2', 'read:repository');
    for (const [name, exists] of [['master', true], ['master/doesnotexist', false], ['feature/1', true], ['feature/1/doesnotexist', false]] as const) {
      const res = await g.api(`repos/user2/repo1/branches/${name}`, { auth });
      expect(res.status, name).toBe(exists ? 200 : 404);
      if (exists) expect(await res.json()).toMatchObject({ name, user_can_push: true, user_can_merge: true });
    }
  });

  describe('TestAPICreateBranch', () => {
    let fresh: GiteaFixtures;
    beforeAll(async () => {
      fresh = await startGitea();
      await fresh.call('user/repos', { method: 'POST', auth: await fresh.tokenAuth('user2', 'write:repository', 'write:user'), json: { name: 'my-noo-repo', auto_init: true, default_branch: 'master' } }, 201);
    });
    afterAll(async () => { await fresh.stop(); });

    const cases: [string, string, number][] = [
      ['', 'new_branch_from_default_branch', 201],
      ['master', 'new_branch_from_master_1', 201],
      ['master', 'new_branch_from_master_1', 409],
      ['new_branch_from_master_1', 'branch_2', 201],
      ['does_not_exist', 'new_branch_from_non_existent', 404],
      ['master', 'test-👀', 201],
    ];
    // Each case leans on the ones before it (the same branch twice, a branch off a new one), as in Gitea.
    // Named as Go names Gitea's subtests: the new branch, "#01" on a repeated name.
    const named = cases.map((c, i) => [cases.slice(0, i).some((p) => p[1] === c[1]) ? `${c[1]}#01` : c[1], i] as const);
    it.each(named)('TestAPICreateBranch/%s', async (_name, index) => {
      const [from, to, status] = cases[index]!;
      const auth = await fresh.tokenAuth('user2', 'write:repository');
      for (const [f, t, s] of cases.slice(0, index)) {
        if (s === 201) await fresh.api('repos/user2/my-noo-repo/branches', { method: 'POST', auth, json: { new_branch_name: t, old_branch_name: f } });
      }
      const body = await fresh.call('repos/user2/my-noo-repo/branches', { method: 'POST', auth, json: { new_branch_name: to, old_branch_name: from } }, status);
      if (status === 201) expect(body.name).toBe(to);
    });
  });

  describe('TestAPIUpdateBranch', () => {
    let fresh: GiteaFixtures;
    beforeAll(async () => { fresh = await startGitea(); });
    afterAll(async () => { await fresh.stop(); });

    const rename = async (doer: string, owner: string, name: string, from: string, to: string, status: number) =>
      fresh.call(`repos/${owner}/${name}/branches/${from}`, { method: 'PATCH', auth: await fresh.tokenAuth(doer, 'write:repository'), json: { name: to } }, status);
    const world = () => once(fresh, 'update-world', async () => {
      await repo1(fresh);
      await collaborator(fresh, 'user2', 'repo1', 'user40', 'write');
      await repo(fresh, 'user10', 'repo6', { auto_init: false });
    });

    it('TestAPIUpdateBranch/UpdateBranchWithEmptyRepo', async () => {
      await world();
      await rename('user10', 'user10', 'repo6', 'master', 'test', 404);
    });

    it('TestAPIUpdateBranch/UpdateBranchWithSameBranchNames', async () => {
      await world();
      const body = await rename('user2', 'user2', 'repo1', 'master', 'master', 422);
      expect(body.message).toContain('Cannot rename a branch using the same name or rename to a branch that already exists.');
    });

    it('TestAPIUpdateBranch/UpdateBranchThatAlreadyExists', async () => {
      await world();
      const body = await rename('user2', 'user2', 'repo1', 'master', 'branch2', 422);
      expect(body.message).toContain('Cannot rename a branch using the same name or rename to a branch that already exists.');
    });

    it('TestAPIUpdateBranch/UpdateBranchWithNonExistentBranch', async () => {
      await world();
      const body = await rename('user2', 'user2', 'repo1', 'i-dont-exist', 'new-branch-name', 404);
      expect(body.message).toContain('Branch doesn\'t exist.');
    });

    it('TestAPIUpdateBranch/UpdateBranchWithNonAdminDoer', async () => {
      await world();
      // Not the default branch.
      let body = await rename('user40', 'user2', 'repo1', 'master', 'new-branch-name', 403);
      expect(body.message).toContain('User must be a repo or site admin to rename default or protected branches.');
      // Nor a protected one.
      await once(fresh, 'protected-branch', async () => {
        await fresh.call('repos/user2/repo1/branches', { method: 'POST', auth: await fresh.tokenAuth('user2', 'write:repository'), json: { new_branch_name: 'protected-branch' } }, 201);
        await createProtection(fresh, 'protected-branch', 1, 201);
      });
      body = await rename('user40', 'user2', 'repo1', 'protected-branch', 'new-branch-name', 403);
      expect(body.message).toContain('User must be a repo or site admin to rename default or protected branches.');
    });

    it('TestAPIUpdateBranch/UpdateBranchWithGlobedBasedProtectionRulesAndAdminAccess', async () => {
      await world();
      await once(fresh, 'glob-rule', async () => {
        await fresh.call('repos/user2/repo1/branch_protections', {
          method: 'POST', auth: await fresh.tokenAuth('user2', 'write:repository'), json: { rule_name: 'protected/**', enable_push: true },
        }, 201);
        await fresh.call('repos/user2/repo1/branches', { method: 'POST', auth: await fresh.tokenAuth('user2', 'write:repository'), json: { new_branch_name: 'protected/1' } }, 201);
      });
      const body = await rename('user2', 'user2', 'repo1', 'protected/1', 'new-branch-name', 403);
      expect(body.message).toContain('Branch is protected by glob-based protection rules.');
    });

    it('TestAPIUpdateBranch/UpdateBranchNormalScenario', async () => {
      await world();
      await rename('user2', 'user2', 'repo1', 'branch2', 'new-branch-name', 204);
      await fresh.call('repos/user2/repo1/branches/new-branch-name', { auth: await fresh.basic('user2') });
    });
  });

  it('TestAPIBranchProtection', async () => {
    await repo1(g);
    // A rule for a branch that does not exist.
    await createProtection(g, 'master/doesnotexist', 1, 201);
    // A branch that exists but has no rule.
    await getProtection('master', 404);
    await createProtection(g, 'master', 2, 201);
    // Only once.
    await createProtection(g, 'master', 0, 403);
    // A protected branch cannot be deleted.
    await deleteBranch('master', 403);

    await getProtection('master', 200);
    await editProtection('master', { enable_push: true });
    // Status checks on, the "test1" check required.
    await editProtection('master', { enable_status_check: true, status_check_contexts: ['test1'] });
    let bp = await getProtection('master', 200);
    expect(bp).toMatchObject({ enable_status_check: true, status_check_contexts: ['test1'] });
    // Off again, the list cleared.
    await editProtection('master', { enable_status_check: false, status_check_contexts: [] });
    bp = await getProtection('master', 200);
    expect(bp).toMatchObject({ enable_status_check: false, status_check_contexts: [] });

    await g.call('repos/user2/repo1/branch_protections/master', { method: 'DELETE', auth: await token(g, 'user2', 'write:repository') }, 204);
    // The default branch is never deleted; another branch is.
    await deleteBranch('master', 403);
    await deleteBranch('branch2', 204);
  });
});
