import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// Deleted branches as Gitea keeps them: a branch deleted by a push is listed on the branches
// page and can be restored; a branch pushed again under its name is forgotten; the cron task
// deleted_branches_cleanup forgets deletions older than its older_than.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
const api = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${p}`, init);

beforeAll(async () => {
  // Deletions are forgotten after a second, so the cron test needs not wait a day.
  s = await startTestServer({ HEARTH__CRON__DELETED_BRANCHES_CLEANUP__OLDER_THAN: '1s' });
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

/** A repository with branches main and `name`, and a work tree to push from. */
async function withBranch(repo: string, name: string): Promise<{ wt: string; url: string }> {
  await createRepo(s, alice, repo);
  const wt = await workTree({ 'a.txt': 'a\n' });
  await git(wt, 'branch', name);
  const url = remoteUrl(s, 'alice', repo, alice.username, alice.password);
  await git(wt, 'push', '-q', url, 'main', name);
  return { wt, url };
}

describe('deleted branches', () => {
  it('remembers a branch a push deleted, and restores it', async () => {
    const { wt, url } = await withBranch('pushed', 'gone');
    await git(wt, 'push', '-q', url, '--delete', 'gone');
    const c = new WebClient(s);
    await c.signIn(alice.username, alice.password);
    const listed = await (await c.get('alice/pushed/branches')).text();
    expect(listed).toContain('<del>gone</del> <span class="meta">deleted by alice');
    const id = /name="branch_id" value="(\d+)"/.exec(listed)![1]!;
    expect((await c.post('alice/pushed/branches/restore', { branch_id: id }, { from: 'alice/pushed/branches' })).status).toBe(303);
    const branch = await ok(await api('repos/alice/pushed/branches/gone', { auth: as(alice) }));
    expect(branch.commit.id).toBe((await git(wt, 'rev-parse', 'HEAD')).trim());
  });

  it('forgets a deletion once the name is pushed again', async () => {
    const { wt, url } = await withBranch('again', 'twice');
    await git(wt, 'push', '-q', url, '--delete', 'twice');
    await git(wt, 'push', '-q', url, 'twice');
    const html = await (await s.request('alice/again/branches', { auth: as(alice) })).text();
    expect(html).not.toContain('<del>twice</del>');
  });

  it('forgets old deletions when deleted_branches_cleanup runs', async () => {
    const { wt, url } = await withBranch('aged', 'old');
    await git(wt, 'push', '-q', url, '--delete', 'old');
    expect(await (await s.request('alice/aged/branches', { auth: as(alice) })).text()).toContain('<del>old</del>');
    await new Promise((r) => setTimeout(r, 2100));
    await ok(await api('admin/cron/deleted_branches_cleanup', { method: 'POST', auth: { basic: [s.admin.username, s.admin.password] } }), 204);
    expect(await (await s.request('alice/aged/branches', { auth: as(alice) })).text()).not.toContain('<del>old</del>');
  });
});
