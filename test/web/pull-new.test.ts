import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';

// A new pull request from a comparison: the form under compare/{base}...{head} (writers also
// set labels, assignees and milestone), a head picker across the visitor's fork, drafts, and
// refusals re-rendered with the values kept. Each pull is checked through the API.

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // writer
let carol: Creds; // reader with a fork
let work: Work;
let web: { bob: WebClient; carol: WebClient };

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) => s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });

beforeAll(async () => {
  s = await startTestServer();
  [alice, bob, carol] = [await createUser(s, 'alice'), await createUser(s, 'bob'), await createUser(s, 'carol')];
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('collaborators/bob', 'PUT', { permission: 'write' }), 204);
  work = await cloneWork(s, 'alice', 'proj', bob);
  web = { bob: await signedInClient(s, 'bob', bob.password), carol: await signedInClient(s, 'carol', carol.password) };
});
afterAll(async () => { await s.stop(); });

describe('a new pull request from a comparison', () => {
  it('lets a writer open a draft with labels, a milestone and a reviewer; a second one for the same branches is refused', async () => {
    const label = await ok(await api('labels', 'POST', { name: 'bug', color: '#ff0000' }), 201);
    const milestone = await ok(await api('milestones', 'POST', { title: 'v1' }), 201);
    await work.branch('feature', { 'f.txt': 'f\n' });
    const from = 'alice/proj/compare/main...feature';
    const page = await (await web.bob.get(from)).text();
    expect(page).toContain('Open a pull request');
    expect(page).toContain(`<option value="${label.id}">bug</option>`);
    expect(page).toContain('<option value="alice">alice</option>');
    const res = await web.bob.post(from, {
      title: 'Add f', body: 'Fixes nothing', labels: String(label.id), milestone: String(milestone.id), reviewers: 'alice', draft: 'on',
    }, { from });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toMatch(/\/alice\/proj\/pulls\/1$/);
    const pr = await ok(await api('pulls/1'));
    expect([pr.title, pr.body, pr.head.ref, pr.base.ref, pr.draft]).toEqual(['WIP: Add f', 'Fixes nothing', 'feature', 'main', true]);
    expect(pr.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    expect(pr.milestone.title).toBe('v1');
    expect(pr.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['alice']);
    const again = await web.bob.post(from, { title: 'Again' }, { from });
    expect(again.status).toBe(409);
    const text = await again.text();
    expect(text).toContain('pull request already exists');
    expect(text).toContain('value="Again"');
  });

  it('lets a reader open one from their fork through the head picker, without writer fields; an empty title comes back 422', async () => {
    await ok(await s.request('api/v1/repos/alice/proj/forks', { method: 'POST', auth: as(carol), json: {} }), 202);
    const mine = await cloneWork(s, 'carol', 'proj', carol);
    await mine.branch('idea', { 'idea.txt': 'idea\n' });
    const same = await web.carol.get('alice/proj/compare?base=main&head=main');
    expect(same.status).toBe(303);
    expect(new URL(same.headers.get('location')!).pathname).toBe('/alice/proj/compare/main...main');
    const picked = await web.carol.get('alice/proj/compare?base=main&head=carol%3Aidea');
    expect(picked.status).toBe(200);
    const page = await picked.text();
    expect(page).toContain('action="http://');
    const to = 'alice/proj/compare/main...carol:idea';
    expect(page).toContain(`/${to}"`);
    expect(page).toContain('<option value="carol:idea" selected>carol:idea</option>');
    expect(page).not.toContain('name="labels"');
    expect(page).not.toContain('name="milestone"');
    const from = 'alice/proj/compare?base=main&head=carol%3Aidea';
    const empty = await web.carol.post(to, { title: ' ', body: 'kept' }, { from });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain('>kept</textarea>');
    const res = await web.carol.post(to, { title: 'An idea' }, { from });
    expect(res.status, await res.clone().text()).toBe(303);
    const pulls = await ok(await api('pulls?state=all'));
    const made = pulls.find((p: { title: string }) => p.title === 'An idea');
    expect([made.head.ref, made.head.repo.full_name, made.user.login]).toEqual(['idea', 'carol/proj', 'carol']);
  });

  it('shows no form to an anonymous visitor', async () => {
    await work.branch('other', { 'o.txt': 'o\n' });
    const text = await (await s.request('alice/proj/compare/main...other')).text();
    expect(text).toContain('o.txt');
    expect(text).not.toContain('Open a pull request');
    expect((await s.request('alice/proj/compare/main...other', { method: 'POST', body: new URLSearchParams({ title: 'x' }) })).status).toBe(403);
  });
});
