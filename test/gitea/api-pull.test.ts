import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures, type Repo1 } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_pull_test.go. repo1's pulls #2 (branch1) and #3
// (branch2) are the kit's; repo10 and its fork repo11 (user13's, master a commit ahead) serve
// the cross-repository cases, as Gitea's fixtures do.

let g: GiteaFixtures;
let r: Repo1;
beforeAll(async () => {
  g = await startGitea();
  r = await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Pull = { id: number; number: number; title: string; diff_url: string; user: { id: number }; base: { ref: string }; milestone: { id: number } | null; assignees: { login: string }[] | null; labels: { id: number }[]; requested_reviewers: { login: string }[] | null };
type File = { filename: string; previous_filename?: string; additions: number; deletions: number; changes: number; status: string };

/** A branch off master with one new file, and a pull request of it (Gitea's creatPullRequestWithCommit). */
async function pullWithCommit(branch: string): Promise<Pull> {
  const owner = await g.user('user2');
  await g.pushBranches(owner, 'repo1', { [branch]: { [branch]: 'This is a test.' } });
  return g.call('repos/user2/repo1/pulls', { method: 'POST', auth: await g.basic('user2'), json: { head: branch, base: 'master', title: 'Add a test file' } }, 201);
}
const branchStatus = async (name: string) => (await g.api(`repos/user2/repo1/branches/${name}`, { auth: await g.basic('user2') })).status;

describe('TestAPIViewPulls', () => {
  it('TestAPIViewPulls', async () => {
    // Gitea's fixture asks user4 and user5 to review #2.
    await g.call('repos/user2/repo1/pulls/2/requested_reviewers', { method: 'POST', auth: await g.basic('user2'), json: { reviewers: ['user4', 'user5'] } }, 201);
    const auth = await g.tokenAuth('user2', 'read:repository');
    const pulls: Pull[] = await g.call('repos/user2/repo1/pulls?state=all', { auth });
    const two = pulls.find((p) => p.number === 2)!;
    expect(pulls.filter((p) => p.number <= 3)).toHaveLength(2);
    expect(two.user.id).toBe(g.user1.id);
    expect(two.requested_reviewers!.map((u) => u.login).sort()).toEqual(['user4', 'user5']);

    const diff = await (await g.s.request(new URL(two.diff_url).pathname.slice(1))).text();
    expect(diff).toContain('diff --git a/branch1.txt b/branch1.txt');
    expect(diff).toContain('new file mode');
    const files: File[] = await g.call('repos/user2/repo1/pulls/2/files', { auth });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ filename: 'branch1.txt', additions: 1, changes: 1, deletions: 0, status: 'added' });
    expect(files[0]!.previous_filename ?? '').toBe('');
  });
});

describe('TestAPIViewPullsByBaseHead', () => {
  it('TestAPIViewPullsByBaseHead', async () => {
    const auth = await g.tokenAuth('user2', 'read:repository');
    expect((await g.call('repos/user2/repo1/pulls/master/branch2', { auth })).number).toBe(3);
    expect((await g.api('repos/user2/repo1/pulls/master/branch-not-exist', { auth })).status).toBe(404);
  });
});

describe('TestAPIMergePullWIP', () => {
  it('TestAPIMergePullWIP', async () => {
    const pr = await pullWithCommit('wip-pull');
    await g.call(`repos/user2/repo1/pulls/${pr.number}`, { method: 'PATCH', auth: await g.basic('user2'), json: { title: `WIP: ${pr.title}` } }, 201);
    const auth = await g.tokenAuth('user2', 'write:repository');
    const res = await g.api(`repos/user2/repo1/pulls/${pr.number}/merge`, { method: 'POST', auth, json: { MergeMessageField: `WIP: ${pr.title}`, Do: 'merge' } });
    expect(res.status).toBe(405);
  });
});

describe('TestAPIMergePull', () => {
  it('TestAPIMergePull/Normal', async () => {
    const pr = await pullWithCommit('test-pull-1');
    const auth = await g.tokenAuth('user2', 'write:repository');
    const merge = () => g.api(`repos/user2/repo1/pulls/${pr.number}/merge`, { method: 'POST', auth, json: { Do: 'merge' } });
    expect((await merge()).status).toBe(200);
    expect(await branchStatus('test-pull-1')).toBe(200);
    // Gitea's test sends its request again, whose body was already read: no merge style, 422.
    expect((await g.api(`repos/user2/repo1/pulls/${pr.number}/merge`, { method: 'POST', auth, json: {} })).status).toBe(422);
    // The same request in full: merged already, 405 (Gitea's ErrHasMerged); the branch kept.
    expect((await merge()).status).toBe(405);
    expect(await branchStatus('test-pull-1')).toBe(200);
  });

  it('TestAPIMergePull/DeleteBranchAfterMergePassedByFormField', async () => {
    const pr = await pullWithCommit('test-pull-2');
    const auth = await g.tokenAuth('user2', 'write:repository');
    expect((await g.api(`repos/user2/repo1/pulls/${pr.number}/merge`, { method: 'POST', auth, json: { Do: 'merge', delete_branch_after_merge: true } })).status).toBe(200);
    expect(await branchStatus('test-pull-2')).toBe(404);
  });

  it('TestAPIMergePull/DeleteBranchAfterMergePassedByRepoSettings', async () => {
    const pr = await pullWithCommit('test-pull-3');
    await g.call('repos/user2/repo1', { method: 'PATCH', auth: await g.basic('user2'), json: { default_delete_branch_after_merge: true } });
    try {
      const auth = await g.tokenAuth('user2', 'write:repository');
      expect((await g.api(`repos/user2/repo1/pulls/${pr.number}/merge`, { method: 'POST', auth, json: { Do: 'merge' } })).status).toBe(200);
      expect(await branchStatus('test-pull-3')).toBe(404);
    } finally {
      await g.call('repos/user2/repo1', { method: 'PATCH', auth: await g.basic('user2'), json: { default_delete_branch_after_merge: false } });
    }
  });
});

describe('pull requests across forks', () => {
  const fromFork = { head: 'user13:master', base: 'master', title: 'create a failure pr' };
  const collaborate = async (repo: string, permission: string) =>
    g.call(`repos/${repo}/collaborators/user4`, { method: 'PUT', auth: await g.basic(repo.split('/')[0]!), json: { permission } }, 204);
  const drop = async (repo: string) => g.api(`repos/${repo}/collaborators/user4`, { method: 'DELETE', auth: await g.basic(repo.split('/')[0]!) });
  /** Gitea's tests run each on fresh fixtures: an open pull of the fork's master is closed first. */
  const closeForkPulls = async () => {
    for (const p of await g.call('repos/user10/repo10/pulls?state=open') as Pull[]) {
      await g.call(`repos/user10/repo10/pulls/${p.number}`, { method: 'PATCH', auth: await g.basic('user10'), json: { state: 'closed' } }, 201);
    }
  };

  it('TestAPICreatePullSuccess', async () => {
    await g.repo10();
    await closeForkPulls();
    const auth = await g.tokenAuth('user13', 'write:repository');
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(201);
    // Gitea's test sends its request again with its body already read: no title, 422.
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: {} })).status).toBe(422);
    // The same request in full: a pull of that head into that base is open already, 409 as Gitea.
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(409);
  });

  it('TestAPICreatePullBasePermission', async () => {
    await g.repo10();
    await closeForkPulls();
    await g.user('user4');
    await drop('user10/repo10');
    await drop('user13/repo11');
    const auth = await g.tokenAuth('user4', 'write:repository');
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(403);
    await collaborate('user10/repo10', 'read');
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(201);
  });

  it('TestAPICreatePullHeadPermission', async () => {
    await g.repo10();
    await closeForkPulls();
    await g.user('user4');
    await drop('user10/repo10');
    await drop('user13/repo11');
    const auth = await g.tokenAuth('user4', 'write:repository');
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(403);
    await collaborate('user13/repo11', 'read');
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(403);
    await collaborate('user13/repo11', 'write');
    expect((await g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: fromFork })).status).toBe(201);
  });

  it('TestAPICreatePullWithFieldsSuccess', async () => {
    const r10 = await g.repo10();
    await closeForkPulls();
    const auth = await g.tokenAuth('user13', 'write:repository');
    const pull: Pull = await g.call('repos/user10/repo10/pulls', {
      method: 'POST', auth, json: { ...fromFork, body: 'foobaaar', milestone: r10.milestone, assignees: ['user10'], labels: [r10.label] },
    }, 201);
    expect(pull.milestone?.id).toBe(r10.milestone);
    expect(pull.assignees?.map((a) => a.login)).toEqual(['user10']);
    expect(pull.labels.map((l) => l.id)).toEqual([r10.label]);
  });

  it('TestAPICreatePullWithFieldsFailure', async () => {
    // Gitea's test resends one request whose body was read the first time: each answer is the
    // empty body's 422. Here each field is sent, and answered as Gitea's CreatePullRequest does.
    const r10 = await g.repo10();
    await closeForkPulls();
    const auth = await g.tokenAuth('user13', 'write:repository');
    const create = (json: Record<string, unknown>) => g.api('repos/user10/repo10/pulls', { method: 'POST', auth, json: { head: 'user13:master', base: 'master', ...json } });
    expect((await create({})).status).toBe(422);
    expect((await create({ title: 'is required', milestone: 666 })).status).toBe(404);
    expect((await create({ title: 'is required', milestone: r10.milestone, assignees: ['qweruqweroiuyqweoiruywqer'] })).status).toBe(422);
    expect(await g.call('repos/user10/repo10/pulls?state=open')).toEqual([]);
  });

  it('TestAPICreatePullSameRepoSuccess', async () => {
    await g.pushBranches(await g.user('user2'), 'repo1', { 'pr-to-update': { 'update.txt': 'update\n' } });
    const auth = await g.tokenAuth('user2', 'write:repository');
    const json = { head: 'user2:pr-to-update', base: 'master', title: 'successfully create a PR between branches of the same repository' };
    expect((await g.api('repos/user2/repo1/pulls', { method: 'POST', auth, json })).status).toBe(201);
    expect((await g.api('repos/user2/repo1/pulls', { method: 'POST', auth, json: {} })).status).toBe(422);
    expect((await g.api('repos/user2/repo1/pulls', { method: 'POST', auth, json })).status).toBe(409);
  });

  it('TestAPIEditPull', async () => {
    await g.repo10();
    const auth = await g.tokenAuth('user10', 'write:repository');
    const title = 'create a success pr';
    const made: Pull = await g.call('repos/user10/repo10/pulls', { method: 'POST', auth, json: { head: 'develop', base: 'master', title } }, 201);
    expect(made.base.ref).toBe('master');
    const edited: Pull = await g.call(`repos/user10/repo10/pulls/${made.number}`, {
      method: 'PATCH', auth, json: { base: 'feature/1', title: 'edit a this pr', body: 'edited body' },
    }, 201);
    expect(edited.base.ref).toBe('feature/1');
    const timeline = await g.call(`repos/user10/repo10/issues/${made.number}/timeline`, { auth: await g.basic('user10') });
    expect(timeline.some((c: { type: string; old_title: string; new_title: string }) =>
      c.type === 'change_title' && c.old_title === title && c.new_title === 'edit a this pr')).toBe(true);
    expect((await g.api(`repos/user10/repo10/pulls/${made.number}`, { method: 'PATCH', auth, json: { base: 'not-exist' } })).status).toBe(404);
  });
});

describe('TestAPICommitPullRequest', () => {
  it('TestAPICommitPullRequest', async () => {
    const pr = await pullWithCommit('commit-pull');
    expect((await g.api(`repos/user2/repo1/pulls/${pr.number}/merge`, { method: 'POST', auth: await g.basic('user2'), json: { Do: 'merge' } })).status).toBe(200);
    // The merge commit of a merged pull request (Gitea's fixture names one by its sha).
    const merged = (await g.call(`repos/user2/repo1/pulls/${pr.number}`)).merge_commit_sha as string;
    const auth = await g.tokenAuth('user2', 'read:repository');
    expect((await g.call(`repos/user2/repo1/commits/${merged}/pull`, { auth })).number).toBe(pr.number);
    expect((await g.api('repos/user2/repo1/commits/abcd1234abcd1234abcd1234abcd1234abcd1234/pull', { auth })).status).toBe(404);
    expect(r.heads.branch1).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('TestAPIViewPullFilesWithHeadRepoDeleted', () => {
  it('TestAPIViewPullFilesWithHeadRepoDeleted', async () => {
    const all = await g.tokenAuth('user1', 'all');
    await g.call('repos/user2/repo1/forks', { method: 'POST', auth: all, json: {} }, 202);
    await g.call('repos/user1/repo1/contents/file_1.txt', {
      method: 'POST', auth: all, json: { content: Buffer.from('file1').toString('base64'), message: 'add file1', branch: 'master', new_branch: 'fork-branch-1' },
    }, 201);
    const pr: Pull = await g.call('repos/user2/repo1/pulls', { method: 'POST', auth: all, json: { head: 'user1:fork-branch-1', base: 'master', title: 'Test pull-request-target-event' } }, 201);
    const auth = await g.tokenAuth('user2', 'all');
    const check = async () => {
      const files: File[] = await g.call(`repos/user2/repo1/pulls/${pr.number}/files`, { auth });
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ filename: 'file_1.txt', additions: 1, changes: 1, deletions: 0, status: 'added' });
    };
    await check();
    expect((await g.api('repos/user1/repo1', { method: 'DELETE', auth: all })).status).toBe(204);
    await check();
  });
});
