import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';

// The issue list over HTTP: its filter form (author, assignee, label, milestone, keyword,
// sort) and the writers' bulk form (close, reopen, add or remove a label), checked through the
// API; a reader gets no bulk form and a forged one changes nothing.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let web: WebClient;
let bobWeb: WebClient;
const ids = { bug: 0, docs: 0, v1: 0 };

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** The titles listed on a page of the list, in order. */
async function titles(c: WebClient, query: string): Promise<string[]> {
  const text = await (await c.get(`alice/proj/issues?${query}`)).text();
  return [...text.matchAll(/<a href="[^"]*\/alice\/proj\/issues\/\d+">([^<]*)<\/a>/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  ids.bug = (await ok(await api('repos/alice/proj/labels', 'POST', { name: 'bug', color: '#ee0701' }), 201)).id;
  ids.docs = (await ok(await api('repos/alice/proj/labels', 'POST', { name: 'docs', color: '#0000ee' }), 201)).id;
  ids.v1 = (await ok(await api('repos/alice/proj/milestones', 'POST', { title: 'v1' }), 201)).id;
  await ok(await api('repos/alice/proj/issues', 'POST', { title: 'Crash on start', labels: [ids.bug], milestone: ids.v1, assignees: ['alice'] }), 201);
  await ok(await api('repos/alice/proj/issues', 'POST', { title: 'Typo in guide', labels: [ids.docs] }), 201);
  await ok(await api('repos/alice/proj/issues', 'POST', { title: 'Bob asks' }, bob), 201);
  await ok(await api('repos/alice/proj/issues/3/comments', 'POST', { body: 'busy' }), 201);
  web = await signedInClient(s, 'alice', alice.password);
  bobWeb = await signedInClient(s, 'bob', bob.password);
});
afterAll(async () => { await s.stop(); });

describe('filters', () => {
  it('filters by author, assignee, label, milestone and keyword, and sorts', async () => {
    expect(await titles(web, '')).toEqual(['Bob asks', 'Typo in guide', 'Crash on start']);
    expect(await titles(web, 'poster=bob')).toEqual(['Bob asks']);
    expect(await titles(web, 'assignee=alice')).toEqual(['Crash on start']);
    expect(await titles(web, `labels=${ids.docs}`)).toEqual(['Typo in guide']);
    expect(await titles(web, `milestone=${ids.v1}`)).toEqual(['Crash on start']);
    expect(await titles(web, 'q=typo')).toEqual(['Typo in guide']);
    expect(await titles(web, 'sort=oldest')).toEqual(['Crash on start', 'Typo in guide', 'Bob asks']);
    expect((await titles(web, 'sort=mostcomment'))[0]).toBe('Bob asks');
    // Nobody of that name: an empty list, not an error.
    const res = await web.get('alice/proj/issues?poster=nobody');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('No issues.');
  });

  it('keeps the filters in the form and in the state tabs', async () => {
    const text = await (await web.get(`alice/proj/issues?poster=bob&sort=oldest&labels=${ids.bug}`)).text();
    expect(text).toContain('id="filter-poster" type="text" name="poster" value="bob"');
    expect(text).toMatch(/<option value="oldest" selected>/);
    expect(text).toMatch(new RegExp(`<option value="${ids.bug}" selected>bug</option>`));
    expect(text).toContain(`?poster=bob&amp;labels=${ids.bug}&amp;sort=oldest&amp;state=closed`);
  });
});

describe('bulk changes', () => {
  it('closes, reopens, labels and unlabels the chosen issues for a writer', async () => {
    const { number: a } = await ok(await api('repos/alice/proj/issues', 'POST', { title: 'bulk a' }), 201);
    const { number: b } = await ok(await api('repos/alice/proj/issues', 'POST', { title: 'bulk b' }), 201);
    const page = await (await web.get('alice/proj/issues')).text();
    expect(page).toContain(`form="bulk" name="issue" value="${a}"`);
    const post = (action: string) => web.fetch('alice/proj/issues/bulk', {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${encodeURIComponent(/name="_csrf" value="([^"]+)"/.exec(page)![1]!)}&issue=${a}&issue=${b}&action=${action}&back=state%3Dopen`,
    });
    const labelled = await post(`label-${ids.docs}`);
    expect(labelled.status).toBe(303);
    expect(labelled.headers.get('location')).toMatch(/\/alice\/proj\/issues\?state=open$/);
    for (const n of [a, b]) expect((await ok(await api(`repos/alice/proj/issues/${n}`))).labels.map((l: { name: string }) => l.name)).toEqual(['docs']);
    expect((await post(`unlabel-${ids.docs}`)).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${a}`))).labels).toEqual([]);
    expect((await post('close')).status).toBe(303);
    for (const n of [a, b]) expect((await ok(await api(`repos/alice/proj/issues/${n}`))).state).toBe('closed');
    expect((await post('reopen')).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/issues/${b}`))).state).toBe('open');
  });

  it('comes back (422) when no issue is chosen', async () => {
    const res = await web.post('alice/proj/issues/bulk', { action: 'close', back: 'state=open' }, { from: 'alice/proj/issues' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Choose at least one issue.');
  });

  it("gives a reader no bulk form, and a reader's forged one changes nothing", async () => {
    const { number: n } = await ok(await api('repos/alice/proj/issues', 'POST', { title: 'not yours' }), 201);
    const text = await (await bobWeb.get('alice/proj/issues')).text();
    expect(text).not.toContain('id="bulk"');
    expect(text).not.toContain('form="bulk"');
    const res = await bobWeb.post('alice/proj/issues/bulk', { issue: String(n), action: 'close' }, { from: 'alice/proj/issues' });
    expect(res.status).toBe(403);
    expect((await ok(await api(`repos/alice/proj/issues/${n}`))).state).toBe('open');
  });
});
