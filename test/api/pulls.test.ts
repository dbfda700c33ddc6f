import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { expectNullableShape } from '../helpers/issue-shape';
import { as, cloneWork, commitFile, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// Pull requests over the API: creation rules, listing, editing, diffs, forks, protections.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let work: string;
let branch: Work['branch'];

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/repos/${p}`, { method, auth: as(who), json: body });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  const w = await cloneWork(s, 'alice', 'proj', alice);
  work = w.dir;
  branch = w.branch;
  await commitFile(work, 'README.md', 'line one\nline two\n');
  await git(work, 'push', '-q', 'origin', 'HEAD:main');
});
afterAll(async () => { await s.stop(); });

describe('create, get, list', () => {
  let number = 0;
  it('creates a pull request (201) that is also an issue', async () => {
    const head = await branch('feature', { 'a.txt': 'a\n', 'README.md': 'line one\nline 2\nline three\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'feature', base: 'main', title: 'Add a', body: 'please' }), 201);
    expectNullableShape(pr, 'PullRequest');
    number = pr.number;
    expect(pr.head).toMatchObject({ ref: 'feature', sha: head, repo_id: pr.base.repo_id });
    expect(pr.base.ref).toBe('main');
    expect(pr).toMatchObject({ mergeable: true, merged: false, draft: false, additions: 3, deletions: 1, changed_files: 2, state: 'open' });
    expect(pr.diff_url).toMatch(/\/pulls\/\d+\.diff$/);
    const issue = await ok(await api(`alice/proj/issues/${number}`));
    expect(issue.pull_request).toMatchObject({ merged: false, draft: false });
    const repo = await ok(await api('alice/proj'));
    expect(repo.open_pr_counter).toBe(1);
  });

  it('refuses duplicates (409), the same branch (422) and missing branches (404)', async () => {
    expect((await api('alice/proj/pulls', 'POST', { head: 'feature', base: 'main', title: 'again' })).status).toBe(409);
    expect((await api('alice/proj/pulls', 'POST', { head: 'main', base: 'main', title: 'same' })).status).toBe(422);
    expect((await api('alice/proj/pulls', 'POST', { head: 'nope', base: 'main', title: 'x' })).status).toBe(404);
    expect((await api('alice/proj/pulls', 'POST', { head: 'feature', base: 'nope', title: 'x' })).status).toBe(404);
    expect((await api('alice/proj/pulls', 'POST', { head: 'feature', base: 'main' })).status).toBe(422);
  });

  it('gets by index and by base/head, lists with state and paging', async () => {
    const one = await ok(await api(`alice/proj/pulls/${number}`));
    expectNullableShape(one, 'PullRequest');
    const byBranches = await ok(await api('alice/proj/pulls/main/feature'));
    expect(byBranches.number).toBe(number);
    await branch('second', { 'b.txt': 'b\n' });
    await ok(await api('alice/proj/pulls', 'POST', { head: 'second', base: 'main', title: 'Second' }), 201);
    const res = await api('alice/proj/pulls?state=open&limit=1');
    const page = await ok(res);
    expectNullableShape(page, '[PullRequest]');
    expect(page).toHaveLength(1);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(await ok(await api('alice/proj/pulls?state=closed'))).toEqual([]);
    expect((await api('alice/proj/pulls/999')).status).toBe(404);
    expect((await api('alice/proj/pulls/main/nope')).status).toBe(404);
  });

  it('lists commits and files, and serves the diff and the patch', async () => {
    const commits = await ok(await api(`alice/proj/pulls/${number}/commits`));
    expectNullableShape(commits, '[Commit]');
    expect(commits).toHaveLength(2);
    const filesRes = await api(`alice/proj/pulls/${number}/files?limit=1`);
    const files = await ok(filesRes);
    expectNullableShape(files, '[ChangedFile]');
    expect(filesRes.headers.get('x-total-count')).toBe('2');
    const all = await ok(await api(`alice/proj/pulls/${number}/files`));
    expect(all.map((f: { filename: string; status: string; changes: number }) => [f.filename, f.status, f.changes]))
      .toEqual([['README.md', 'changed', 3], ['a.txt', 'added', 1]]);
    const diff = await ok(await api(`alice/proj/pulls/${number}.diff`));
    expect(diff).toContain('diff --git a/a.txt b/a.txt');
    const patch = await ok(await api(`alice/proj/pulls/${number}.patch`));
    expect(patch).toMatch(/^From [0-9a-f]{40} /);
  });

  it('follows pushes to the head branch', async () => {
    await git(work, 'checkout', '-q', 'feature');
    const sha = await commitFile(work, 'c.txt', 'c\n');
    await git(work, 'push', '-q', 'origin', 'feature:feature');
    const pr = await ok(await api(`alice/proj/pulls/${number}`));
    expect(pr.head.sha).toBe(sha);
    expect(pr.changed_files).toBe(3);
    expect(await ok(await api(`alice/proj/pulls/${number}/commits`))).toHaveLength(3);
  });
});

describe('edit', () => {
  it('edits title (WIP makes a draft that cannot merge), state, base; answers 201', async () => {
    await branch('wip', { 'w.txt': 'w\n' });
    await ok(await api('alice/proj/branches', 'POST', { new_branch_name: 'other' }), 201);
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'wip', base: 'main', title: 'WIP: later' }), 201);
    expect(pr.draft).toBe(true);
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' })).status).toBe(405);
    const edited = await ok(await api(`alice/proj/pulls/${pr.number}`, 'PATCH', { title: 'ready', base: 'other', due_date: '2030-01-02T00:00:00Z' }), 201);
    expectNullableShape(edited, 'PullRequest');
    expect(edited).toMatchObject({ title: 'ready', draft: false });
    expect(edited.base.ref).toBe('other');
    expect(edited.due_date).toMatch(/^2030-01-02/);
    expect((await api(`alice/proj/pulls/${pr.number}`, 'PATCH', { base: 'missing' })).status).toBe(404);
    const closed = await ok(await api(`alice/proj/pulls/${pr.number}`, 'PATCH', { state: 'closed' }), 201);
    expect(closed.state).toBe('closed');
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' })).status).toBe(404);
    // A second pull for the same branches may open; the first then cannot reopen.
    await ok(await api('alice/proj/pulls', 'POST', { head: 'wip', base: 'other', title: 'again' }), 201);
    expect((await api(`alice/proj/pulls/${pr.number}`, 'PATCH', { state: 'open' })).status).toBe(409);
  });
});

describe('reviews', () => {
  it('pending, submitted, listed, commented, stale after a push, deleted', async () => {
    await ok(await api('alice/proj/collaborators/bob', 'PUT', { permission: 'write' }), 204);
    await branch('reviewed', { 'r.txt': 'one\ntwo\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'reviewed', base: 'main', title: 'Review me' }), 201);
    expect((await api(`alice/proj/pulls/${pr.number}/reviews`, 'POST', { event: 'APPROVED' })).status).toBe(422);
    expect((await api(`alice/proj/pulls/${pr.number}/reviews`, 'POST', { event: 'COMMENT' }, bob)).status).toBe(422);
    const pending = await ok(await api(`alice/proj/pulls/${pr.number}/reviews`, 'POST', {
      body: 'draft', comments: [{ path: 'r.txt', body: 'why two?', new_position: 2 }],
    }, bob));
    expectNullableShape(pending, 'PullReview');
    expect(pending.state).toBe('PENDING');
    expect(await ok(await api(`alice/proj/pulls/${pr.number}/reviews`))).toEqual([]);
    const submitted = await ok(await api(`alice/proj/pulls/${pr.number}/reviews/${pending.id}`, 'POST', { event: 'REQUEST_CHANGES', body: 'fix it' }, bob));
    expect(submitted).toMatchObject({ state: 'REQUEST_CHANGES', official: true, comments_count: 1 });
    const list = await ok(await api(`alice/proj/pulls/${pr.number}/reviews`));
    expectNullableShape(list, '[PullReview]');
    expect(list).toHaveLength(1);
    const comments = await ok(await api(`alice/proj/pulls/${pr.number}/reviews/${pending.id}/comments`));
    expectNullableShape(comments, '[PullReviewComment]');
    expect(comments[0]).toMatchObject({ path: 'r.txt', body: 'why two?', position: 2, diff_hunk: expect.stringMatching(/@@ -0,0 \+1,2 @@\n\+one\n\+two$/) });
    expect((await ok(await api(`alice/proj/pulls/${pr.number}`))).review_comments).toBe(1);
    await git(work, 'checkout', '-q', 'reviewed');
    await commitFile(work, 'r.txt', 'one\n');
    await git(work, 'push', '-q', 'origin', 'reviewed:reviewed');
    expect((await ok(await api(`alice/proj/pulls/${pr.number}/reviews/${pending.id}`))).stale).toBe(true);
    expect((await api(`alice/proj/pulls/${pr.number}/reviews/${pending.id}/dismissals`, 'POST', {}, bob)).status).toBe(403);
    await ok(await api(`alice/proj/pulls/${pr.number}/reviews/${pending.id}`, 'DELETE', undefined, bob), 204);
    expect((await api(`alice/proj/pulls/${pr.number}/reviews/${pending.id}`)).status).toBe(404);
  });
});

describe('review requests', () => {
  it('requests and cancels reviewers; they show on the pull request', async () => {
    await branch('ask', { 'ask.txt': 'ask\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'ask', base: 'main', title: 'Ask bob' }), 201);
    const made = await ok(await api(`alice/proj/pulls/${pr.number}/requested_reviewers`, 'POST', { reviewers: ['bob'] }), 201);
    expectNullableShape(made, '[PullReview]');
    expect(made[0]).toMatchObject({ state: 'REQUEST_REVIEW' });
    expect((await ok(await api(`alice/proj/pulls/${pr.number}`))).requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['bob']);
    expect((await api(`alice/proj/pulls/${pr.number}/requested_reviewers`, 'POST', { reviewers: ['alice'] })).status).toBe(422);
    expect((await api(`alice/proj/pulls/${pr.number}/requested_reviewers`, 'POST', { reviewers: ['nobody'] })).status).toBe(404);
    await ok(await api(`alice/proj/pulls/${pr.number}/requested_reviewers`, 'DELETE', { reviewers: ['bob'] }), 204);
    expect((await ok(await api(`alice/proj/pulls/${pr.number}`))).requested_reviewers).toEqual([]);
  });
});

describe('update', () => {
  it('merges or rebases the base into the head branch', async () => {
    const old = await branch('behind', { 'behind.txt': 'x\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'behind', base: 'main', title: 'Behind' }), 201);
    await git(work, 'checkout', '-q', '-B', 'main', 'origin/main');
    const mainSha = await commitFile(work, 'moved.txt', 'moved\n');
    await git(work, 'push', '-q', 'origin', 'main:main');
    await ok(await api(`alice/proj/pulls/${pr.number}/update?style=merge`, 'POST'), 200);
    const merged = await ok(await api(`alice/proj/pulls/${pr.number}`));
    await git(work, 'fetch', '-q', 'origin');
    expect((await git(work, 'log', '-1', '--format=%P', merged.head.sha)).trim()).toBe(`${old} ${mainSha}`);
    await git(work, 'checkout', '-q', '-B', 'main', 'origin/main');
    const main2 = await commitFile(work, 'moved2.txt', 'moved\n');
    await git(work, 'push', '-q', 'origin', 'main:main');
    await ok(await api(`alice/proj/pulls/${pr.number}/update?style=rebase`, 'POST'), 200);
    const rebased = await ok(await api(`alice/proj/pulls/${pr.number}`));
    await git(work, 'fetch', '-q', 'origin');
    expect((await git(work, 'merge-base', '--is-ancestor', main2, rebased.head.sha).then(() => 'yes'))).toBe('yes');
    expect((await api(`alice/proj/pulls/${pr.number}/update?style=bogus`, 'POST')).status).toBe(422);
  });
});

describe('fork pull requests', () => {
  it('opens owner:branch from a fork, fetches the head, merges into the base', async () => {
    await ok(await api('alice/proj/forks', 'POST', {}, bob), 202);
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'bob', 'proj', bob.username, bob.password), 'f');
    const fork = path.join(dir, 'f');
    await git(fork, 'checkout', '-q', '-b', 'from-fork');
    const sha = await commitFile(fork, 'fork.txt', 'from bob\n');
    await git(fork, 'push', '-q', 'origin', 'from-fork');
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'bob:from-fork', base: 'main', title: 'From the fork' }, bob), 201);
    expectNullableShape(pr, 'PullRequest');
    expect(pr.head.repo.full_name).toBe('bob/proj');
    expect(pr.head.sha).toBe(sha);
    expect(pr.mergeable).toBe(true);
    const ls = await git(work, 'ls-remote', 'origin', `refs/pull/${pr.number}/head`);
    expect(ls).toContain(sha);
    expect((await api('alice/proj/pulls', 'POST', { head: 'carol:x', base: 'main', title: 'x' }, bob)).status).toBe(404);
    const carol = await createUser(s, 'carol');
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }, carol)).status).toBe(405);
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'squash' }), 200);
    const file = await ok(await api('alice/proj/raw/fork.txt?ref=main'));
    expect(file).toBe('from bob\n');
  });
});

describe('listing', () => {
  it('filters by labels in SQL (X-Total-Count follows), base_branch, and sorts as Gitea', async () => {
    const label = await ok(await api('alice/proj/labels', 'POST', { name: 'ship', color: '#00ff00' }), 201);
    await branch('list-a', { 'list-a.txt': 'a\n' });
    await branch('list-b', { 'list-b.txt': 'b\n' });
    const a = await ok(await api('alice/proj/pulls', 'POST', { head: 'list-a', base: 'main', title: 'List A', labels: [label.id] }), 201);
    const b = await ok(await api('alice/proj/pulls', 'POST', { head: 'list-b', base: 'main', title: 'List B', labels: [label.id] }), 201);
    const res = await api(`alice/proj/pulls?state=all&labels=${label.id}&limit=1`);
    const page = await ok(res);
    expect(page.map((p: { number: number }) => p.number)).toEqual([b.number]);
    expect(res.headers.get('x-total-count')).toBe('2');
    const oldest = await ok(await api(`alice/proj/pulls?state=all&labels=${label.id}&sort=oldest`));
    expect(oldest.map((p: { number: number }) => p.number)).toEqual([a.number, b.number]);
    await ok(await api(`alice/proj/issues/${a.number}/comments`, 'POST', { body: 'busy' }), 201);
    const most = await ok(await api(`alice/proj/pulls?state=all&labels=${label.id}&sort=mostcomment`));
    expect(most[0].number).toBe(a.number);
    const other = await ok(await api('alice/proj/pulls?state=all&base_branch=other'));
    expect(other.length).toBeGreaterThan(0);
    expect(other.every((p: { base: { ref: string } }) => p.base.ref === 'other')).toBe(true);
  });

  it('streams the diff as text/plain, with binary patches only when asked', async () => {
    await branch('binary', { 'blob.bin': 'a\u0000b\u0001c' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'binary', base: 'main', title: 'Binary' }), 201);
    const plain = await api(`alice/proj/pulls/${pr.number}.diff`);
    expect(plain.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await plain.text()).toContain('Binary files /dev/null and b/blob.bin differ');
    expect(await ok(await api(`alice/proj/pulls/${pr.number}.patch?binary=true`))).toContain('GIT binary patch');
  });

  it('pull_request.merged on the issue JSON after a merge (bug: always false)', async () => {
    await branch('merged-flag', { 'merged-flag.txt': 'm\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'merged-flag', base: 'main', title: 'Flag' }), 201);
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    const issue = await ok(await api(`alice/proj/issues/${pr.number}`));
    expect(issue.pull_request).toMatchObject({ merged: true, draft: false });
    expect(issue.pull_request.merged_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const listed = await ok(await api('alice/proj/issues?type=pulls&state=closed'));
    expect(listed.find((i: { number: number }) => i.number === pr.number).pull_request.merged).toBe(true);
  });
});

describe('protections', () => {
  it('enforces the merge whitelist, required approvals and status checks', async () => {
    await ok(await api('alice/proj/collaborators/bob', 'PUT', { permission: 'write' }), 204);
    const head = await branch('guarded', { 'g.txt': 'g\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'guarded', base: 'main', title: 'Guarded' }), 201);
    await ok(await api('alice/proj/branch_protections', 'POST', {
      rule_name: 'main', enable_merge_whitelist: true, merge_whitelist_usernames: ['alice'],
      enable_status_check: true, status_check_contexts: ['ci'],
    }), 201);
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }, bob)).status).toBe(405);
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' })).status).toBe(405);
    await ok(await api(`alice/proj/statuses/${head}`, 'POST', { state: 'success', context: 'ci' }), 201);
    await ok(await api('alice/proj/branch_protections/main', 'PATCH', { required_approvals: 1 }), 200);
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' })).status).toBe(405);
    // bob writes: his approval is official and satisfies the rule.
    const review = await ok(await api(`alice/proj/pulls/${pr.number}/reviews`, 'POST', { event: 'APPROVED', body: 'lgtm' }, bob));
    expect(review).toMatchObject({ state: 'APPROVED', official: true, stale: false, dismissed: false });
    await ok(await api(`alice/proj/pulls/${pr.number}/reviews/${review.id}/dismissals`, 'POST', { message: 'no' }));
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' })).status).toBe(405);
    await ok(await api(`alice/proj/pulls/${pr.number}/reviews/${review.id}/undismissals`, 'POST'));
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`), 204);
  });

  it('lets an admin force past missing approvals', async () => {
    await branch('forced', { 'forced.txt': 'f\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'forced', base: 'main', title: 'Forced' }), 201);
    await ok(await api('alice/proj/branch_protections/main', 'PATCH', { enable_status_check: false }), 200);
    expect((await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' })).status).toBe(405);
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge', force_merge: true }), 200);
  });

  it('refuses pulls that change protected files', async () => {
    await ok(await api('alice/proj/branch_protections/main', 'PATCH', { required_approvals: 0, protected_file_patterns: 'secret/*.txt' }), 200);
    await branch('secret', { 'secret/key.txt': 'k\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'secret', base: 'main', title: 'Secret' }), 201);
    const res = await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' });
    expect(res.status).toBe(405);
    expect(await res.text()).toContain('secret/key.txt');
    await ok(await api('alice/proj/branch_protections/main', 'PATCH', { protected_file_patterns: '' }), 200);
  });
});

describe('concurrent creation', () => {
  it('six creations of one pull request at once make one, the others 409', async () => {
    await branch('twice', { 'twice.txt': 'twice\n' });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => api('alice/proj/pulls', 'POST', { head: 'twice', base: 'main', title: `twice ${i}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const open = await ok(await api('alice/proj/pulls?state=open&limit=50'));
    expect(open.filter((p: { head: { ref: string } }) => p.head.ref === 'twice')).toHaveLength(1);
  });
});
