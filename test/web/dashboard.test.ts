import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// The signed-in dashboard, the anonymous landing page, and /issues and /pulls across
// repositories with Gitea's filters; review requests through the API's issue search.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds; // owns alice/app and alice/secret
let bob: Creds; // asked to review, assigned, mentioned
let eve: Creds; // sees only public things
const root = () => s.hearth.config.server.root_url;
const api = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${p}`, init);
const post = (p: string, who: Creds, body: unknown, status = 201) => api(p, { method: 'POST', auth: as(who), json: body }).then((r) => ok(r, status));

async function signedIn(u: Creds): Promise<WebClient> {
  const c = new WebClient(s);
  await c.signIn(u.username, u.password);
  return c;
}
const text = async (c: WebClient, p: string) => {
  const res = await c.get(p);
  expect(res.status, p).toBe(200);
  return res.text();
};

/** A pull request of alice's on her repository, from a branch with one new file. */
async function pull(repo: string, branch: string, title: string): Promise<number> {
  await post(`repos/alice/${repo}/contents/${branch}.txt`, alice, { content: Buffer.from(branch).toString('base64'), new_branch: branch });
  return (await post(`repos/alice/${repo}/pulls`, alice, { head: branch, base: 'main', title })).number;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  eve = await createUser(s, 'eve');
  await createRepo(s, alice, 'app', { auto_init: true, description: 'The app' });
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  await createOrg(s, alice, 'acme');
  await post('orgs/acme/repos', alice, { name: 'tools', auto_init: true });
  await ok(await api('repos/alice/app/collaborators/bob', { method: 'PUT', auth: as(alice), json: { permission: 'write' } }), 204);
  await post('repos/alice/app/issues', alice, { title: 'Fix the <thing>', assignees: ['bob'] });
  await post('repos/alice/app/issues', alice, { title: 'A question', body: 'What do you think, @bob?' });
  await post('repos/alice/app/issues', bob, { title: 'Bob opened this' });
  await post('repos/alice/secret/issues', alice, { title: 'Secret plans' });
  const n = await pull('app', 'feature', 'Add the feature');
  await post(`repos/alice/app/pulls/${n}/requested_reviewers`, alice, { reviewers: ['bob'] });
  await pull('app', 'other', 'Another change');
});
afterAll(async () => { await s.stop(); });

describe('/', () => {
  it('is a light landing page for visitors, with the way to explore', async () => {
    const html = await text(new WebClient(s), '');
    expect(html).toContain(`href="${root()}explore/repos">Explore repositories</a>`);
    expect(html).toContain(`href="${root()}alice/app">alice/app</a>`);
    expect(html).not.toContain('alice/secret');
  });

  it('shows a signed-in user their repositories, organizations and what waits for them', async () => {
    const html = await text(await signedIn(bob), '');
    expect(html).toContain('<h1>Dashboard</h1>');
    // The header: search, the create menu, unread notifications (the assignment, the mention...).
    expect(html).toContain(`<form class="search" role="search" aria-label="Repositories" method="get" action="${root()}explore/repos">`);
    expect(html).toContain(`href="${root()}repo/create">New repository</a>`);
    const unread = Number(/aria-label="Notifications, (\d+) unread"/.exec(html)?.[1]);
    expect(unread).toBeGreaterThan(0);
    expect(html).toContain(`<span class="badge-count" aria-hidden="true">${unread}</span>`);
    expect(html).toContain(`href="${root()}alice/app">alice/app</a>`);
    expect(html).toMatch(/aria-labelledby="d-assigned">[\s\S]*Fix the &lt;thing&gt;[\s\S]*<\/section>/);
    expect(html).toMatch(/aria-labelledby="d-reviews">[\s\S]*Add the feature[\s\S]*<\/section>/);
    expect(html).toMatch(/aria-labelledby="d-mentions">[\s\S]*A question[\s\S]*<\/section>/);
    const mine = await text(await signedIn(alice), '');
    const pulls = mine.slice(mine.indexOf('aria-labelledby="d-pulls"'));
    expect(pulls.slice(0, pulls.indexOf('</section>'))).toMatch(/Another change[\s\S]*Add the feature/);
    expect(mine).toContain(`href="${root()}acme">acme</a>`);
    expect(mine).toContain(`href="${root()}acme/tools">acme/tools</a>`);
  });

  it('filters the repositories by name', async () => {
    const c = await signedIn(alice);
    const html = await text(c, '?q=too');
    const repos = html.slice(html.indexOf('aria-labelledby="d-repos"'), html.indexOf('</section>'));
    expect(repos).toContain('acme/tools</a>');
    expect(repos).not.toContain('>alice/app</a>');
  });
});

describe('/issues and /pulls', () => {
  it('sends a browser without a session to sign in', async () => {
    const res = await new WebClient(s).get('issues');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/login?redirect_to=%2Fissues`);
  });

  it('filters by the user\'s part: assigned, created, mentioned, in their repositories', async () => {
    const c = await signedIn(bob);
    const assigned = await text(c, 'issues?type=assigned');
    expect(assigned).toContain('Fix the &lt;thing&gt;');
    expect(assigned).not.toContain('Bob opened this');
    expect(await text(c, 'issues?type=created_by')).toContain('Bob opened this');
    const mentioned = await text(c, 'issues?type=mentioned');
    expect(mentioned).toContain('A question');
    expect(mentioned).not.toContain('Fix the');
    const all = await text(await signedIn(alice), 'issues');
    expect(all).toContain('Secret plans');
    expect(all).toContain('Bob opened this');
    expect(all).not.toContain('Add the feature');
  });

  it('never shows what the user may not see', async () => {
    const c = await signedIn(eve);
    for (const type of ['your_repositories', 'created_by', 'mentioned', 'assigned']) expect(await text(c, `issues?type=${type}`)).not.toContain('Secret plans');
    const secret = (await json(await api('repos/alice/secret', { auth: as(alice) }))).id;
    expect(await text(c, `issues?repos=${secret}`)).not.toContain('Secret plans');
  });

  it('narrows by state and repository', async () => {
    await createRepo(s, alice, 'closing', { auto_init: true });
    const issue = await post('repos/alice/closing/issues', alice, { title: 'Done already' });
    await ok(await api(`repos/alice/closing/issues/${issue.number}`, { method: 'PATCH', auth: as(alice), json: { state: 'closed' } }), 201);
    const c = await signedIn(alice);
    const id = (await json(await api('repos/alice/closing', { auth: as(alice) }))).id;
    expect(await text(c, `issues?repos=${id}`)).toContain('Nothing here.');
    const closed = await text(c, `issues?repos=${id}&state=closed`);
    expect(closed).toContain('Done already');
    expect(closed).not.toContain('Fix the');
  });

  it('lists pull requests awaiting the user\'s review until they answer', async () => {
    const n = await pull('app', 'review-me', 'Review me please');
    await post(`repos/alice/app/pulls/${n}/requested_reviewers`, alice, { reviewers: ['bob'] });
    const c = await signedIn(bob);
    expect(await text(c, 'pulls?type=review_requested')).toContain('Review me please');
    const search = await json(await api('repos/issues/search?type=pulls&review_requested=true', { auth: as(bob) }));
    expect(search.map((i: { title: string }) => i.title)).toContain('Review me please');
    await post(`repos/alice/app/pulls/${n}/reviews`, bob, { event: 'APPROVED', body: 'Fine' }, 200);
    expect(await text(c, 'pulls?type=review_requested')).not.toContain('Review me please');
    expect(await text(c, 'pulls?type=reviewed_by')).toContain('Review me please');
    // Nobody else was asked.
    expect(await json(await api('repos/issues/search?type=pulls&review_requested=true', { auth: as(eve) }))).toEqual([]);
  });
});
