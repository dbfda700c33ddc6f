import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';

// The conversation tab of a pull request with its forms: the merge box (mergeability, statuses,
// approvals against the base's rule, merge styles, scheduling, update branch), close and
// reopen, draft, review requests. Every form goes through the API's services: each effect is
// checked through the API; readers see no write form and their forged posts change nothing.

let s: TestServer;
let alice: Creds; // owner of the repository
let bob: Creds; // a collaborator who writes, author of the pull requests
let carol: Creds; // a reader (public repository)
let work: Work;
let web: { alice: WebClient; bob: WebClient; carol: WebClient };

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) => s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });
const pullOf = async (n: number) => ok(await api(`pulls/${n}`));
const postForms = (html: string): string[] => [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!).filter((a) => !/\/(user\/logout|action\/(watch|unwatch|star|unstar))$/.test(a));

let n = 0;
/** A new pull request by bob from a new branch; its number. */
async function openPull(files: Record<string, string>, title = 'A change'): Promise<number> {
  const branch = `topic-${++n}`;
  await work.branch(branch, files);
  return (await ok(await api('pulls', 'POST', { head: branch, base: 'main', title }, bob), 201)).number;
}

beforeAll(async () => {
  s = await startTestServer();
  [alice, bob, carol] = [await createUser(s, 'alice'), await createUser(s, 'bob'), await createUser(s, 'carol')];
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('collaborators/bob', 'PUT', { permission: 'write' }), 204);
  work = await cloneWork(s, 'alice', 'proj', bob);
  web = { alice: await signedInClient(s, 'alice', alice.password), bob: await signedInClient(s, 'bob', bob.password), carol: await signedInClient(s, 'carol', carol.password) };
});
afterAll(async () => { await s.stop(); });

describe('the merge box', () => {
  it('shows a writer the styles the repository allows; squash merges with the edited title and deletes the branch', async () => {
    await ok(await s.request('api/v1/repos/alice/proj', { method: 'PATCH', auth: as(alice), json: { allow_rebase: false, default_merge_style: 'squash' } }));
    const index = await openPull({ 'one.txt': '1\n' }, 'Add one');
    const page = await web.alice.get(`alice/proj/pulls/${index}`);
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).toContain('This branch has no conflicts with the base branch.');
    expect(text).toMatch(/<input type="radio" name="do" value="squash"[^>]* checked>/);
    expect(text).not.toContain('value="rebase"');
    expect(text).toContain('value="Add one (#1)"');
    const res = await web.alice.post(`alice/proj/pulls/${index}/merge`, {
      do: 'squash', merge_title: 'Squashed: one', merge_message: '', default_title: 'Add one (#1)', default_message: '', delete_branch: 'on',
    }, { from: `alice/proj/pulls/${index}` });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`/alice/proj/pulls/${index}#merge$`));
    const pr = await pullOf(index);
    expect(pr.merged).toBe(true);
    expect((await ok(await api(`git/commits/${pr.merge_commit_sha}`))).commit.message).toMatch(/^Squashed: one/);
    expect((await api('branches/topic-1')).status).toBe(404);
    const after = await (await web.alice.get(`alice/proj/pulls/${index}`)).text();
    expect(after).toContain('This pull request was merged');
    expect(postForms(after).some((a) => a.endsWith('/merge'))).toBe(false);
    await ok(await s.request('api/v1/repos/alice/proj', { method: 'PATCH', auth: as(alice), json: { allow_rebase: true, default_merge_style: 'merge' } }));
  });

  it('shows statuses and approvals against the rule; a refused merge re-renders 405 with the reason and the typed title', async () => {
    const index = await openPull({ 'two.txt': '2\n' });
    const { head } = await pullOf(index);
    await ok(await api('branch_protections', 'POST', { rule_name: 'main', required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci/*'] }), 201);
    await ok(await api(`statuses/${head.sha}`, 'POST', { state: 'failure', context: 'ci/build', description: 'broke' }), 201);
    const text = await (await web.alice.get(`alice/proj/pulls/${index}`)).text();
    expect(text).toContain('Some checks were not successful');
    expect(text).toContain('ci/build');
    expect(text).toContain('0 of 1 required approval');
    expect(text).toContain('Required check <code>ci/*</code>: failure');
    const res = await web.alice.post(`alice/proj/pulls/${index}/merge`, { do: 'merge', merge_title: 'My title' }, { from: `alice/proj/pulls/${index}` });
    expect(res.status).toBe(405);
    const again = await res.text();
    expect(again).toContain('role="alert">Does not have enough approvals');
    expect(again).toContain('value="My title"');
    expect((await pullOf(index)).merged).toBe(false);
    // Scheduled instead: it waits, and the page says so with a way to cancel.
    const scheduled = await web.alice.post(`alice/proj/pulls/${index}/merge`, { do: 'merge', when_checks_succeed: 'on' }, { from: `alice/proj/pulls/${index}` });
    expect(scheduled.status, await scheduled.clone().text()).toBe(303);
    const waiting = await (await web.alice.get(`alice/proj/pulls/${index}`)).text();
    expect(waiting).toContain('scheduled this pull request to merge when all checks succeed');
    expect((await web.alice.post(`alice/proj/pulls/${index}/merge/cancel`, {}, { from: `alice/proj/pulls/${index}` })).status).toBe(303);
    expect((await pullOf(index)).merged).toBe(false);
    expect(await (await web.alice.get(`alice/proj/pulls/${index}`)).text()).not.toContain('scheduled this pull request');
    await ok(await api('branch_protections/main', 'DELETE'), 204);
  });

  it('lists the conflicting files and offers no merge; update branch brings the base in', async () => {
    const conflicted = await openPull({ 'README.md': 'mine\n' });
    await ok(await api('contents/README.md', 'PUT', { content: Buffer.from('theirs\n').toString('base64'), sha: (await ok(await api('contents/README.md'))).sha, message: 'base moves' }));
    const text = await (await web.bob.get(`alice/proj/pulls/${conflicted}`)).text();
    expect(text).toContain('This branch has conflicts that must be resolved');
    expect(text).toContain('<li><code>README.md</code></li>');
    expect(postForms(text).some((a) => a.endsWith('/merge'))).toBe(false);
    const behind = await openPull({ 'three.txt': '3\n' });
    await ok(await api('contents/base.txt', 'POST', { content: Buffer.from('b\n').toString('base64'), message: 'base moves again' }), 201);
    const page = await (await web.bob.get(`alice/proj/pulls/${behind}`)).text();
    expect(page).toContain('1 commit behind the base branch');
    const res = await web.bob.post(`alice/proj/pulls/${behind}/update`, { style: 'merge' }, { from: `alice/proj/pulls/${behind}` });
    expect(res.status, await res.clone().text()).toBe(303);
    expect((await web.bob.get(`alice/proj/pulls/${behind}`)).status).toBe(200);
    const commits = await ok(await api(`pulls/${behind}/commits`));
    expect(commits[0].commit.message).toMatch(/^Merge branch 'main' into topic-/);
  });
});

describe('close, draft and review requests', () => {
  it('lets the author close, reopen and mark a draft (the merge box then says so)', async () => {
    const index = await openPull({ 'four.txt': '4\n' }, 'Four');
    const from = `alice/proj/pulls/${index}`;
    expect((await web.bob.post(`${from}/draft`, { draft: 'on' }, { from })).status).toBe(303);
    expect((await pullOf(index)).title).toBe('WIP: Four');
    const text = await (await web.alice.get(from)).text();
    expect(text).toContain('This pull request is a draft');
    expect(text).toContain('<span class="badge">Draft</span>');
    expect((await web.bob.post(`${from}/draft`, { draft: 'off' }, { from })).status).toBe(303);
    expect((await pullOf(index)).title).toBe('Four');
    expect((await web.bob.post(`${from}/state`, { state: 'closed' }, { from })).status).toBe(303);
    expect((await pullOf(index)).state).toBe('closed');
    expect(await (await web.bob.get(from)).text()).toContain('Reopen pull request');
    expect((await web.bob.post(`${from}/state`, { state: 'open' }, { from })).status).toBe(303);
    expect((await pullOf(index)).state).toBe('open');
  });

  it('requests and withdraws reviews of users', async () => {
    const index = await openPull({ 'five.txt': '5\n' });
    const from = `alice/proj/pulls/${index}`;
    const text = await (await web.bob.get(from)).text();
    expect(text).toContain('<option value="user:alice">alice</option>');
    expect(text).not.toContain('<option value="user:bob">');
    expect((await web.bob.post(`${from}/reviewers`, { action: 'add', reviewer: 'user:alice' }, { from })).status).toBe(303);
    expect((await pullOf(index)).requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['alice']);
    expect(await (await web.bob.get(from)).text()).toMatch(/alice<\/a> <span class="meta">review requested<\/span>/);
    expect((await web.bob.post(`${from}/reviewers`, { action: 'remove', reviewer: 'user:alice' }, { from })).status).toBe(303);
    expect((await pullOf(index)).requested_reviewers).toEqual([]);
    const bad = await web.bob.post(`${from}/reviewers`, { action: 'add', reviewer: 'user:' }, { from });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Choose a user or a team to ask.');
  });
});

describe('team review requests', () => {
  it('asks a team of the organization for a review, and withdraws it', async () => {
    const org = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/${p}`, { method, auth: as(alice), json: body });
    await ok(await org('orgs', 'POST', { username: 'acme' }), 201);
    const team = await ok(await org('orgs/acme/teams', 'POST', { name: 'devs', permission: 'write', units: ['repo.code', 'repo.pulls'], includes_all_repositories: true }), 201);
    await ok(await org(`teams/${team.id}/members/bob`, 'PUT'), 204);
    await ok(await org('orgs/acme/repos', 'POST', { name: 'app', auto_init: true, default_branch: 'main' }), 201);
    await ok(await org('repos/acme/app/contents/x.txt', 'POST', { content: Buffer.from('x\n').toString('base64'), message: 'x', new_branch: 'topic' }), 201);
    const pr = await ok(await org('repos/acme/app/pulls', 'POST', { head: 'topic', base: 'main', title: 'X' }), 201);
    const from = `acme/app/pulls/${pr.number}`;
    expect(await (await web.alice.get(from)).text()).toContain('<option value="team:devs">Team devs</option>');
    expect((await web.alice.post(`${from}/reviewers`, { action: 'add', reviewer: 'team:devs' }, { from })).status).toBe(303);
    const asked = await ok(await org(`repos/acme/app/pulls/${pr.number}`));
    expect(asked.requested_reviewers_teams.map((t: { name: string }) => t.name)).toEqual(['devs']);
    expect(await (await web.alice.get(from)).text()).toContain('acme/devs <span class="meta">review requested</span>');
    expect((await web.alice.post(`${from}/reviewers`, { action: 'remove', reviewer: 'team:devs' }, { from })).status).toBe(303);
    expect((await ok(await org(`repos/acme/app/pulls/${pr.number}`))).requested_reviewers_teams).toEqual([]);
  });
});

describe('readers and strangers', () => {
  it('shows a reader and an anonymous visitor no write form; forged posts change nothing', async () => {
    const index = await openPull({ 'six.txt': '6\n' }, 'Six');
    const from = `alice/proj/pulls/${index}`;
    const anonymous = await (await s.request(from)).text();
    expect(postForms(anonymous)).toEqual([]);
    const reader = await (await web.carol.get(from)).text();
    expect(postForms(reader)).toEqual([]);
    expect(reader).toContain('This branch has no conflicts');
    const token = await web.carol.csrfOf('');
    const merge = await web.carol.post(`${from}/merge`, { do: 'merge' }, { csrf: token });
    expect([403, 405]).toContain(merge.status);
    expect((await web.carol.post(`${from}/state`, { state: 'closed' }, { csrf: token })).status).toBe(403);
    expect((await web.carol.post(`${from}/draft`, { draft: 'on' }, { csrf: token })).status).toBe(403);
    // A reviewer the doer may not choose is Gitea's ErrNotValidReviewRequest (422), as on the API.
    expect((await web.carol.post(`${from}/reviewers`, { action: 'add', reviewer: 'user:alice' }, { csrf: token })).status).toBe(422);
    const pr = await pullOf(index);
    expect([pr.merged, pr.state, pr.title, pr.requested_reviewers]).toEqual([false, 'open', 'Six', []]);
    // Without a session, or without the token, nothing is even tried.
    expect((await s.request(`${from}/merge`, { method: 'POST', auth: as(alice), body: new URLSearchParams({ do: 'merge' }) })).status).toBe(403);
    expect((await web.alice.post(`${from}/merge`, { do: 'merge' }, { csrf: false })).status).toBe(403);
    expect((await pullOf(index)).merged).toBe(false);
  });
});
