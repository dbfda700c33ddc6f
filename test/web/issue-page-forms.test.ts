import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, cloneWork, ok, type Creds } from '../helpers/pull-fixtures';
import { eventually } from '../helpers/wait';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';

// The issue page's forms over HTTP: each posts to the API's service and answers 303 back to
// the page and anchor, a refusal re-renders the page (422) with the value kept, and what a
// form changed is checked through the API. A reader gets no write forms, and a forged post
// from a reader changes nothing.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let web: WebClient;
let bobWeb: WebClient;
let next = 0;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** A fresh issue of alice/proj (each test its own), by `who`. */
async function newIssue(body = 'Opening post', who: Creds = alice): Promise<number> {
  next++;
  return (await ok(await api('repos/alice/proj/issues', 'POST', { title: `Issue ${next}`, body }, who), 201)).number;
}

const pagePath = (n: number) => `alice/proj/issues/${n}`;
const location = (res: Response) => res.headers.get('location') ?? '';

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  web = await signedInClient(s, 'alice', alice.password);
  bobWeb = await signedInClient(s, 'bob', bob.password);
});
afterAll(async () => { await s.stop(); });

describe('the conversation', () => {
  it('comments, closes with a comment and reopens; the timeline says who did it', async () => {
    const n = await newIssue();
    const res = await web.post(`${pagePath(n)}/comments`, { content: 'first *reply*' }, { from: pagePath(n) });
    expect(res.status).toBe(303);
    const [comment] = await ok(await api(`repos/alice/proj/issues/${n}/comments`));
    expect(comment.body).toBe('first *reply*');
    expect(location(res)).toBe(`${s.hearth.config.server.root_url}${pagePath(n)}#issuecomment-${comment.id}`);

    const closed = await web.post(`${pagePath(n)}/comments`, { content: 'done here', status: 'close' }, { from: pagePath(n) });
    expect(closed.status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${n}`))).state).toBe('closed');
    const text = await (await web.get(pagePath(n))).text();
    expect(text).toContain('<em>reply</em>');
    expect(text).toMatch(/>alice<\/a> closed this issue /);
    expect(text).toContain('Reopen with comment');

    expect((await web.post(`${pagePath(n)}/comments`, { content: '', status: 'reopen' }, { from: pagePath(n) })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${n}`))).state).toBe('open');
    expect(await ok(await api(`repos/alice/proj/issues/${n}/comments`))).toHaveLength(2);
  });

  it('says which pull request closed the issue, and shows the reference a commit made', async () => {
    const n = await newIssue();
    const work = await cloneWork(s, 'alice', 'proj', alice);
    await work.branch(`fix-${n}`, { [`fix-${n}.txt`]: 'fixed\n' });
    const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: `fix-${n}`, base: 'main', title: `Repair ${n}`, body: `Fixes #${n}` }), 201);
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }));
    await eventually(async () => (await ok(await api(`repos/alice/proj/issues/${n}`))).state === 'closed', 10_000, 'the issue closed by the merge');
    const text = await (await web.get(pagePath(n))).text();
    expect(text).toMatch(new RegExp(`closed this issue in <a href="[^"]*/alice/proj/pulls/${pr.number}">Repair ${n} #${pr.number}</a>`));
    expect(text).toContain(`which will close this issue when merged`);
  });

  it('refuses an empty comment with the page (422), the form and its error in place', async () => {
    const n = await newIssue();
    const res = await web.post(`${pagePath(n)}/comments`, { content: '   ' }, { from: pagePath(n) });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).toContain('id="f-content-error"');
    expect(text).toContain('aria-invalid="true"');
    expect(await ok(await api(`repos/alice/proj/issues/${n}/comments`))).toHaveLength(0);
  });

  it('opens the edit form in place with ?edit=<id>, saves it, and deletes through a confirmation page', async () => {
    const n = await newIssue();
    const c = await ok(await api(`repos/alice/proj/issues/${n}/comments`, 'POST', { body: 'before' }), 201);
    const form = await (await web.get(`${pagePath(n)}?edit=${c.id}`)).text();
    expect(form).toContain(`id="edit-${c.id}"`);
    expect(form).toMatch(/<textarea id="edit-\d+" name="content">before<\/textarea>/);
    // Someone else's comment has no edit form, even when asked for.
    expect(await (await bobWeb.get(`${pagePath(n)}?edit=${c.id}`)).text()).not.toContain(`id="edit-${c.id}"`);

    const saved = await web.post(`alice/proj/comments/${c.id}`, { content: 'after' }, { from: pagePath(n) });
    expect(saved.status).toBe(303);
    expect(location(saved)).toMatch(new RegExp(`#issuecomment-${c.id}$`));
    expect((await ok(await api(`repos/alice/proj/issues/comments/${c.id}`))).body).toBe('after');

    const confirm = await web.get(`alice/proj/comments/${c.id}/delete`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('Delete comment');
    expect((await web.post(`alice/proj/comments/${c.id}/delete`, {}, { from: `alice/proj/comments/${c.id}/delete` })).status).toBe(303);
    expect((await api(`repos/alice/proj/issues/comments/${c.id}`)).status).toBe(404);
  });

  it('edits the title and the opening post; an empty title comes back (422) keeping the form', async () => {
    const n = await newIssue('old text');
    expect((await web.post(`${pagePath(n)}/title`, { title: 'Renamed' }, { from: pagePath(n) })).status).toBe(303);
    const refused = await web.post(`${pagePath(n)}/title`, { title: ' ' }, { from: pagePath(n) });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('Enter a title.');
    const version = /name="version" value="(\d+)"/.exec(await (await web.get(`${pagePath(n)}?edit=issue`)).text())?.[1];
    expect(version).toBeDefined();
    expect((await web.post(`${pagePath(n)}/content`, { content: 'new text', version: version! }, { from: pagePath(n) })).status).toBe(303);
    const got = await ok(await api(`repos/alice/proj/issues/${n}`));
    expect([got.title, got.body]).toEqual(['Renamed', 'new text']);
    expect(await (await web.get(pagePath(n))).text()).toContain('changed the title from <del>Issue');
  });

  it('links mentions to users and #N to issues of the repository', async () => {
    const n = await newIssue();
    await ok(await api(`repos/alice/proj/issues/${n}/comments`, 'POST', { body: `see #${n} and @bob, not @nobody` }), 201);
    const text = await (await web.get(pagePath(n))).text();
    const root = s.hearth.config.server.root_url;
    expect(text).toMatch(new RegExp(`<a [^>]*href="${root}alice/proj/issues/${n}"[^>]*>#${n}</a>`));
    expect(text).toMatch(new RegExp(`<a [^>]*href="${root}bob"[^>]*>@bob</a>`));
    expect(text).not.toMatch(/href="[^"]*\/nobody"/);
  });

  it('quote reply fills the comment form with the quoted text', async () => {
    const n = await newIssue('line one\nline two');
    const text = await (await bobWeb.get(`${pagePath(n)}?quote=issue`)).text();
    expect(text).toContain('>&gt; line one\n&gt; line two\n\n</textarea>');
  });

  it('reacts and takes the reaction back with the buttons of one form', async () => {
    const n = await newIssue();
    // The picker opens for one text at a time (?react=), so a long conversation stays light.
    const closed = await (await bobWeb.get(pagePath(n))).text();
    expect(closed).toContain(`href="${s.hearth.config.server.root_url}${pagePath(n)}?react=issue#issue-`);
    expect(closed).not.toContain('aria-label="React with heart"');
    expect(await (await bobWeb.get(`${pagePath(n)}?react=issue`)).text()).toContain('aria-label="React with heart"');
    expect((await bobWeb.post(`${pagePath(n)}/reactions`, { react: 'heart' }, { from: pagePath(n) })).status).toBe(303);
    const [r] = await ok(await api(`repos/alice/proj/issues/${n}/reactions`));
    expect([r.content, r.user.login]).toEqual(['heart', 'bob']);
    const text = await (await bobWeb.get(pagePath(n))).text();
    expect(text).toMatch(/name="unreact" value="heart" aria-pressed="true"/);
    expect((await bobWeb.post(`${pagePath(n)}/reactions`, { unreact: 'heart' }, { from: pagePath(n) })).status).toBe(303);
    expect(await ok(await api(`repos/alice/proj/issues/${n}/reactions`))).toHaveLength(0);
  });

  it('ticks a task of the opening post; a stale page is refused and the text stays', async () => {
    const n = await newIssue('- [ ] one\n- [ ] two');
    const text = await (await web.get(pagePath(n))).text();
    expect(text).toContain('role="checkbox" aria-checked="false" aria-label="two"');
    const digest = /name="digest" value="([^"]+)"/.exec(text)![1]!;
    expect((await web.post(`${pagePath(n)}/tasks`, { task: '1-on', digest }, { from: pagePath(n) })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${n}`))).body).toBe('- [ ] one\n- [x] two');
    const stale = await web.post(`${pagePath(n)}/tasks`, { task: '0-on', digest }, { from: pagePath(n) });
    expect(stale.status).toBe(409);
    expect((await ok(await api(`repos/alice/proj/issues/${n}`))).body).toBe('- [ ] one\n- [x] two');
  });

  it("ticks a task of a comment by its own form and fingerprint; a plain conversation's markup stays Latin-1", async () => {
    const n = await newIssue('- [ ] opening');
    const c = await ok(await api(`repos/alice/proj/issues/${n}/comments`, 'POST', { body: '- [ ] alpha\n- [ ] beta' }), 201);
    await ok(await api(`repos/alice/proj/issues/${n}/comments`, 'POST', { body: 'No tasks here, see #1.' }), 201);
    const text = await (await web.get(pagePath(n))).text();
    expect(text).toContain('role="checkbox" aria-checked="false" aria-label="beta"');
    // Menus, reaction links and task boxes go as character references: a page of Latin-1 text
    // is held as one byte a character while it is built and encoded.
    expect(text).not.toMatch(/[^\u0000-\u00ff]/);
    const form = new RegExp(`<form id="tasks-${c.id}" [^>]*>.*?name="digest" value="([^"]+)"`, 's').exec(text);
    expect(form).not.toBeNull();
    expect((await web.post(`alice/proj/comments/${c.id}/tasks`, { task: '1-on', digest: form![1]! }, { from: pagePath(n) })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/comments/${c.id}`))).body).toBe('- [ ] alpha\n- [x] beta');
  });
});

describe('the sidebar', () => {
  it('applies labels, milestone, due date, lock and pin for a writer', async () => {
    const label = await ok(await api('repos/alice/proj/labels', 'POST', { name: `area-${next}`, color: '#00aabb' }), 201);
    const milestone = await ok(await api('repos/alice/proj/milestones', 'POST', { title: `m-${next}` }), 201);
    const n = await newIssue();
    const from = pagePath(n);
    const page = await (await web.get(from)).text();
    expect(page).toContain(`name="label" value="${label.id}"`);
    expect((await web.post(`${from}/labels`, { label: String(label.id) }, { from })).status).toBe(303);
    expect((await web.post(`${from}/milestone`, { milestone: String(milestone.id) }, { from })).status).toBe(303);
    expect((await web.post(`${from}/deadline`, { date: '2030-01-02' }, { from })).status).toBe(303);
    expect((await web.post(`${from}/lock`, { reason: 'Too heated' }, { from })).status).toBe(303);
    expect((await web.post(`${from}/pin`, {}, { from })).status).toBe(303);
    const got = await ok(await api(`repos/alice/proj/issues/${n}`));
    expect(got.labels.map((l: { name: string }) => l.name)).toEqual([label.name]);
    expect(got.milestone.title).toBe(milestone.title);
    expect(got.due_date).toMatch(/^2030-01-02/);
    expect(got.is_locked).toBe(true);
    expect(got.pin_order).toBeGreaterThan(0);
    const text = await (await web.get(from)).text();
    expect(text).toContain('locked as <em>Too heated</em>');
    expect(text).toContain('set the due date to 2030-01-02');
    // A bad date is the user's to fix: the page again, the message at the sidebar.
    const bad = await web.post(`${from}/deadline`, { date: 'soon' }, { from });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('role="alert"');
  });

  it('links a dependency by #N and refuses an unknown one beside the form', async () => {
    const [a, b] = [await newIssue(), await newIssue()];
    const from = pagePath(a);
    expect((await web.post(`${from}/dependency/add`, { kind: 'dependencies', issue: `#${b}` }, { from })).status).toBe(303);
    const [dep] = await ok(await api(`repos/alice/proj/issues/${a}/dependencies`));
    expect(dep.number).toBe(b);
    const refused = await web.post(`${from}/dependency/add`, { kind: 'dependencies', issue: '#9999' }, { from });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('There is no such issue you may link here.');
  });

  it("shows a reader the facts without the writers' forms; a reader's forged posts change nothing", async () => {
    const label = await ok(await api('repos/alice/proj/labels', 'POST', { name: `kept-${next}`, color: '#112233' }), 201);
    const n = await newIssue();
    const from = pagePath(n);
    const text = await (await bobWeb.get(from)).text();
    for (const action of ['labels', 'milestone', 'deadline', 'lock', 'pin', 'title', 'dependency/add']) {
      expect(text, action).not.toContain(`action="${s.hearth.config.server.root_url}${from}/${action}"`);
    }
    expect(text).not.toContain('Close with comment');
    // Bob may comment on a public repository's issue, and subscribe.
    expect(text).toContain(`action="${s.hearth.config.server.root_url}${from}/comments"`);
    const csrf = await bobWeb.csrfOf(from);
    for (const [action, fields] of [
      ['labels', { label: String(label.id) }], ['lock', {}], ['pin', {}], ['title', { title: 'hijacked' }],
      ['comments', { content: '', status: 'close' }], ['deadline', { date: '2030-01-01' }],
    ] as const) {
      const res = await bobWeb.post(`${from}/${action}`, fields, { csrf });
      expect(res.status, action).toBe(403);
    }
    const got = await ok(await api(`repos/alice/proj/issues/${n}`));
    expect([got.labels, got.is_locked, got.pin_order, got.title, got.state, got.due_date])
      .toEqual([[], false, 0, `Issue ${next}`, 'open', null]);
  });

  it('subscribes and unsubscribes the viewer', async () => {
    const n = await newIssue();
    const from = pagePath(n);
    expect((await bobWeb.post(`${from}/watch`, { watch: '1' }, { from })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${n}/subscriptions/check`, 'GET', undefined, bob))).subscribed).toBe(true);
    expect(await (await bobWeb.get(from)).text()).toContain('Unsubscribe');
    expect((await bobWeb.post(`${from}/watch`, { watch: '0' }, { from })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${n}/subscriptions/check`, 'GET', undefined, bob))).subscribed).toBe(false);
  });

  it('sends anonymous posts to sign in, changing nothing', async () => {
    const n = await newIssue();
    const res = await s.request(`${pagePath(n)}/comments`, {
      method: 'POST', redirect: 'manual', body: 'content=hi', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(500);
    expect(await ok(await api(`repos/alice/proj/issues/${n}/comments`))).toHaveLength(0);
  });
});
