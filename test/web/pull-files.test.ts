import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';

// The "Files changed" tab: diffs unified or split (the user's setting), whitespace ignored on
// demand, Viewed marks kept per blob, comments on a line or a range alone or into a pending
// review, finishing a review (verdicts refused to the author), threads with reply and resolve,
// suggestions applied to the head branch, big files behind "Load diff", and the commits tab.
// Every effect is checked through the API; readers' forged posts change nothing.

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // writer, author of the pull requests
let carol: Creds; // a reader who reviews
let work: Work;
let web: { alice: WebClient; bob: WebClient; carol: WebClient };

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) => s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });
const postForms = (html: string): string[] => [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!).filter((a) => !a.endsWith('/user/logout'));
const reviewsOf = async (n: number) => ok(await api(`pulls/${n}/reviews`));

let n = 0;
async function openPull(files: Record<string, string>, title = 'A change'): Promise<{ index: number; branch: string }> {
  const branch = `topic-${++n}`;
  await work.branch(branch, files);
  return { index: (await ok(await api('pulls', 'POST', { head: branch, base: 'main', title }, bob), 201)).number, branch };
}

/** Comment on a line through the form; the 303's anchor. */
async function lineComment(c: WebClient, index: number, f: Record<string, string>): Promise<string> {
  const from = `alice/proj/pulls/${index}/files`;
  const res = await c.post(`${from}/comment`, { side: 'new', mode: 'single', ...f }, { from });
  expect(res.status, await res.clone().text()).toBe(303);
  return res.headers.get('location')!;
}

beforeAll(async () => {
  s = await startTestServer();
  [alice, bob, carol] = [await createUser(s, 'alice'), await createUser(s, 'bob'), await createUser(s, 'carol')];
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('contents/base.txt', 'POST', { content: Buffer.from('one\ntwo\nthree\n').toString('base64'), message: 'base' }), 201);
  await ok(await api('collaborators/bob', 'PUT', { permission: 'write' }), 204);
  work = await cloneWork(s, 'alice', 'proj', bob);
  web = { alice: await signedInClient(s, 'alice', alice.password), bob: await signedInClient(s, 'bob', bob.password), carol: await signedInClient(s, 'carol', carol.password) };
});
afterAll(async () => { await s.stop(); });

describe('the files tab', () => {
  it('lists the files with counts, opens a comment form under a line, and keeps Viewed marks per blob', async () => {
    const { index, branch } = await openPull({ 'a.txt': 'a1\na2\n', 'b.txt': 'b1\n' });
    const url = `alice/proj/pulls/${index}/files`;
    const text = await (await web.bob.get(url)).text();
    expect(text).toContain('2 changed files');
    expect(text).toContain('0 / 2 viewed');
    expect(text).toMatch(/<code>a\.txt<\/code> <span class="meta">added <span class="plus">\+2<\/span>/);
    expect(text).toMatch(/href="[^"]*files\?path=a\.txt&amp;line=new%3A1#diff-[0-9a-f]{12}-R1"/);
    expect(text).not.toContain('id="comment-form"');
    const open = await (await web.carol.get(`${url}?path=a.txt&line=new:2`)).text();
    expect(open).toContain('id="comment-form"');
    expect(open).toContain('Comment on line 2');
    // Viewed: both ticked, then a push changing a.txt brings it back unviewed.
    for (const path of ['a.txt', 'b.txt']) {
      const blob = new RegExp(`name="path" value="${path.replace('.', '\\.')}"><input type="hidden" name="blob" value="([0-9a-f]{40})"`).exec(text)![1]!;
      const res = await web.bob.post(`${url}/viewed`, { path, blob, viewed: 'on' }, { from: url });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/#diff-[0-9a-f]{12}$/);
    }
    expect(await (await web.bob.get(url)).text()).toContain('2 / 2 viewed');
    expect(await (await web.alice.get(url)).text()).toContain('0 / 2 viewed');
    await work.pushTo(branch, 'a.txt', 'a1\na2 changed\n');
    const after = await (await web.bob.get(url)).text();
    expect(after).toContain('1 / 2 viewed');
    expect(after).toMatch(/name="path" value="a\.txt">.*name="viewed" value="on">/);
    expect(after).toMatch(/name="path" value="b\.txt">.*name="viewed" value="off">/);
  });

  it('takes a single comment, a pending review seen only by its reviewer, and a request for changes', async () => {
    const { index } = await openPull({ 'c.txt': 'c1\nc2\nc3\n' });
    const url = `alice/proj/pulls/${index}/files`;
    expect(await lineComment(web.carol, index, { path: 'c.txt', line: '1', content: 'Why c1?' })).toMatch(/files#issuecomment-\d+$/);
    const single = await reviewsOf(index);
    expect(single.map((r: { state: string; user: { login: string } }) => [r.state, r.user.login])).toEqual([['COMMENT', 'carol']]);
    // A range into a pending review: carol sees it, alice does not.
    await lineComment(web.carol, index, { path: 'c.txt', line: '3', start: '2', content: 'These two', mode: 'review' });
    const mine = await (await web.carol.get(url)).text();
    expect(mine).toContain('These two');
    expect(mine).toContain('<span class="badge">Pending</span>');
    expect(mine).toContain('lines 2–3');
    expect(mine).toContain('Finish your review');
    expect(await (await web.alice.get(url)).text()).not.toContain('These two');
    // A range past its hunk, or an empty comment, comes back 422 with the form open and the text kept.
    const bad = await web.carol.post(`${url}/comment`, { path: 'c.txt', side: 'new', line: '9', content: 'nowhere', mode: 'review' }, { from: url });
    expect(bad.status).toBe(422);
    const badText = await bad.text();
    expect(badText).toContain('role="alert" id="comment-error">That line is not part of the changes');
    expect(badText).toContain('>nowhere</textarea>');
    const res = await web.carol.post(`${url}/review`, { event: 'REQUEST_CHANGES', body: 'Please rework' }, { from: url });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`/pulls/${index}#issuecomment-\\d+$`));
    const reviews = await reviewsOf(index);
    expect(reviews.at(-1)).toMatchObject({ state: 'REQUEST_CHANGES', body: 'Please rework', comments_count: 1 });
    expect(await (await web.alice.get(url)).text()).toContain('These two');
  });

  it('shows a reviewer only the changes since their last review on demand', async () => {
    const { index, branch } = await openPull({ 'p.txt': 'p\n', 'q.txt': 'q\n' });
    const url = `alice/proj/pulls/${index}/files`;
    expect(await (await web.carol.get(url)).text()).not.toContain('Changes since your last review');
    expect((await web.carol.post(`${url}/review`, { event: 'COMMENT', body: 'Looked' }, { from: url })).status).toBe(303);
    await work.pushTo(branch, 'q.txt', 'q changed\n');
    const all = await (await web.carol.get(url)).text();
    expect(all).toContain('files?since=review">Changes since your last review</a>');
    const since = await (await web.carol.get(`${url}?since=review`)).text();
    expect(since).toContain('<code>q.txt</code>');
    expect(since).not.toContain('<code>p.txt</code>');
    expect(since).toContain('+q changed');
    expect(since).toContain('>Show all changes</a>');
  });

  it('edits a pending comment, and discards the pending review after a confirmation page', async () => {
    const { index } = await openPull({ 'r.txt': 'r\n' });
    const url = `alice/proj/pulls/${index}/files`;
    const at = await lineComment(web.carol, index, { path: 'r.txt', line: '1', content: 'First thought', mode: 'review' });
    const id = /issuecomment-(\d+)$/.exec(at)![1]!;
    expect((await web.carol.post(`${url}/comment/edit`, { comment: id, content: 'Second thought' }, { from: url })).status).toBe(303);
    expect(await (await web.carol.get(url)).text()).toContain('Second thought');
    const confirm = await web.carol.get(`${url}/review/discard`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('Discard your review?');
    expect((await web.carol.post(`${url}/review/discard`, {}, { from: `${url}/review/discard` })).status).toBe(303);
    const after = await (await web.carol.get(url)).text();
    expect(after).not.toContain('Second thought');
    expect(after).toContain('Review changes</summary>');
    expect(await reviewsOf(index)).toEqual([]);
  });

  it('refuses the author a verdict on their own pull request', async () => {
    const { index } = await openPull({ 'd.txt': 'd\n' });
    const url = `alice/proj/pulls/${index}/files`;
    const text = await (await web.bob.get(url)).text();
    expect(text).toContain('value="COMMENT"');
    expect(text).not.toContain('value="APPROVED"');
    const res = await web.bob.post(`${url}/review`, { event: 'APPROVED', body: 'LGTM' }, { from: url });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('approve your own pull is not allowed');
    expect(await reviewsOf(index)).toEqual([]);
  });

  it('replies to and resolves a thread; applies a suggestion to the head branch', async () => {
    const { index, branch } = await openPull({ 'e.txt': 'e1\nbad line\n' });
    const url = `alice/proj/pulls/${index}/files`;
    const at = await lineComment(web.carol, index, { path: 'e.txt', line: '2', content: 'Try this:\n```suggestion\ngood line\n```' });
    const id = /issuecomment-(\d+)$/.exec(at)![1]!;
    const readerView = await (await web.carol.get(url)).text();
    expect(readerView).not.toContain('Apply suggestion');
    expect(readerView).not.toContain('Resolve conversation');
    // A reader's forged apply and resolve change nothing.
    const token = await web.carol.csrfOf(url);
    expect((await web.carol.post(`${url}/suggestion`, { comment: id }, { csrf: token })).status).toBe(403);
    expect((await web.carol.post(`${url}/resolve`, { comment: id, resolved: 'on' }, { csrf: token })).status).toBe(403);
    expect(Buffer.from((await ok(await api(`contents/e.txt?ref=${branch}`))).content, 'base64').toString()).toBe('e1\nbad line\n');
    const reply = await web.bob.post(`${url}/reply`, { comment: id, content: 'Good idea' }, { from: url });
    expect(reply.status).toBe(303);
    const page = await (await web.alice.get(url)).text();
    expect(page).toContain('Good idea');
    expect(page).toContain('Apply suggestion');
    const applied = await web.alice.post(`${url}/suggestion`, { comment: id }, { from: url });
    expect(applied.status, await applied.clone().text()).toBe(303);
    expect(Buffer.from((await ok(await api(`contents/e.txt?ref=${branch}`))).content, 'base64').toString()).toBe('e1\ngood line\n');
    const resolved = await (await web.alice.get(url)).text();
    expect(resolved).toMatch(/resolved by <a[^>]*>alice<\/a>/);
    expect(resolved).toContain('Unresolve conversation');
    expect((await web.bob.post(`${url}/resolve`, { comment: id, resolved: 'off' }, { from: url })).status).toBe(303);
    expect(await (await web.alice.get(url)).text()).toContain('Resolve conversation');
  });

  it('remembers split or unified per user; ignores whitespace on demand; collapses a big file', async () => {
    const big = Array.from({ length: 1100 }, (_, i) => `line ${i}`).join('\n');
    const { index } = await openPull({ 'base.txt': 'one \ntwo\nthree\n', 'big.txt': `${big}\n`, 'f.txt': 'f\n' });
    const url = `alice/proj/pulls/${index}/files`;
    expect(await (await web.bob.get(url)).text()).toContain('<table class="code diff">');
    expect((await web.bob.post(`${url}/style`, { diff_view_style: 'split' }, { from: url })).status).toBe(303);
    expect((await ok(await s.request('api/v1/user/settings', { auth: as(bob) }))).diff_view_style).toBe('split');
    const split = await (await web.bob.get(url)).text();
    expect(split).toContain('<table class="code diff split">');
    expect(await (await web.alice.get(url)).text()).toContain('<table class="code diff">');
    expect(split).toContain('Large diffs are not shown at first');
    expect(split).not.toContain('line 1099');
    expect(await (await web.bob.get(`${url}?load=big.txt`)).text()).toContain('line 1099');
    expect(split).toContain('+one </td>');
    const ws = await (await web.bob.get(`${url}?whitespace=ignore-all`)).text();
    expect(ws).toContain('No changes to show (only whitespace');
    expect(ws).not.toContain('+one </td>');
  });

  it('shows anonymous visitors the highlighted diff without a form and lists the commits', async () => {
    const { index } = await openPull({ 'g.txt': 'g\n', 'h.ts': 'export const h = 1;\n' }, 'Two commits');
    const text = await (await s.request(`alice/proj/pulls/${index}/files`)).text();
    expect(text).toContain('<code>g.txt</code>');
    expect(text).toMatch(/<td>\+<span class="hljs-keyword">export<\/span> <span class="hljs-keyword">const<\/span>/);
    expect(postForms(text)).toEqual([]);
    expect(text).not.toContain('aria-label="Comment on line');
    const commits = await (await s.request(`alice/proj/pulls/${index}/commits`)).text();
    expect(commits).toContain('change g.txt');
    expect(commits).toContain('change h.ts');
    expect(commits).toMatch(/<a aria-current="page" class="active" href="[^"]+\/commits">Commits <span class="count">2<\/span>/);
    expect((await s.request(`alice/proj/pulls/${index}/nothing`)).status).toBe(404);
  });
});
