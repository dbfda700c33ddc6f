import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { ownerAndOther, type WebClient } from '../helpers/web-client';

// The labels and milestones pages' writers' forms over HTTP: create, edit in place, delete
// through a confirmation page, a label set from the shipped templates, close and reopen a
// milestone; each change checked through the API, and a reader's forged posts refused.

let s: TestServer;
let alice: Creds;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });
const names = async (repo: string): Promise<string[]> => (await ok(await api(`repos/alice/${repo}/labels`))).map((l: { name: string }) => l.name);

beforeAll(async () => {
  s = await startTestServer();
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await createRepo(s, alice, 'proj', { auto_init: true });
  await createRepo(s, alice, 'fresh', { auto_init: true });
});
afterAll(async () => { await s.stop(); });

describe('labels', () => {
  it('creates, edits in place and deletes a label', async () => {
    const from = 'alice/proj/labels';
    expect((await web.post('alice/proj/labels/new', { name: 'bug', color: '#ee0701', description: 'broken' }, { from })).status).toBe(303);
    const [label] = await ok(await api('repos/alice/proj/labels'));
    expect([label.name, label.color, label.description]).toEqual(['bug', 'ee0701', 'broken']);
    const editing = await (await web.get(`${from}?edit=${label.id}`)).text();
    expect(editing).toContain(`action="${s.hearth.config.server.root_url}alice/proj/labels/${label.id}/edit"`);
    expect(editing).toContain(`id="edit-${label.id}-name" name="name" type="text" value="bug"`);
    expect((await web.post(`alice/proj/labels/${label.id}/edit`, { name: 'defect', color: '#00aa00', exclusive: 'on' }, { from })).status).toBe(303);
    const edited = await ok(await api(`repos/alice/proj/labels/${label.id}`));
    expect([edited.name, edited.color, edited.exclusive]).toEqual(['defect', '00aa00', true]);
    expect((await web.get(`alice/proj/labels/${label.id}/delete`)).status).toBe(200);
    expect((await web.post(`alice/proj/labels/${label.id}/delete`, {}, { from })).status).toBe(303);
    expect(await names('proj')).toEqual([]);
  });

  it('refuses a bad colour (422) keeping the values', async () => {
    const res = await web.post('alice/proj/labels/new', { name: 'odd', color: 'pink' }, { from: 'alice/proj/labels' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('value="odd"');
    expect(await names('proj')).not.toContain('odd');
  });

  it('adds a shipped label set to a repository without labels', async () => {
    const page = await (await web.get('alice/fresh/labels')).text();
    expect(page).toContain('<option>Default</option>');
    expect((await web.post('alice/fresh/labels/initialize', { template: 'Default' }, { from: 'alice/fresh/labels' })).status).toBe(303);
    expect((await names('fresh')).length).toBeGreaterThan(3);
    expect(await (await web.get('alice/fresh/labels')).text()).not.toContain('name="template"');
  });

  it("gives a reader no forms, and refuses a reader's forged posts", async () => {
    const l = await ok(await api('repos/alice/proj/labels', 'POST', { name: 'kept', color: '#123456' }), 201);
    const text = await (await bobWeb.get('alice/proj/labels')).text();
    expect(text).not.toContain('labels/new');
    expect(text).not.toContain('/delete');
    expect((await bobWeb.get(`alice/proj/labels/${l.id}/delete`)).status).toBe(403);
    const from = 'alice/proj/labels';
    expect((await bobWeb.post('alice/proj/labels/new', { name: 'mine', color: '#000000' }, { from })).status).toBe(403);
    expect((await bobWeb.post(`alice/proj/labels/${l.id}/delete`, {}, { from })).status).toBe(403);
    expect(await names('proj')).toContain('kept');
    expect(await names('proj')).not.toContain('mine');
  });
});

describe('milestones', () => {
  it('creates, edits, closes, reopens and deletes a milestone', async () => {
    const from = 'alice/proj/milestones/new';
    expect((await web.get(from)).status).toBe(200);
    expect((await web.post('alice/proj/milestones/new', { title: 'v1', content: 'first', deadline: '2031-05-06' }, { from })).status).toBe(303);
    const [m] = await ok(await api('repos/alice/proj/milestones'));
    expect([m.title, m.description, m.due_on.slice(0, 10)]).toEqual(['v1', 'first', '2031-05-06']);
    const edit = `alice/proj/milestones/${m.id}/edit`;
    expect(await (await web.get(edit)).text()).toContain('value="2031-05-06"');
    expect((await web.post(edit, { title: 'v1.0', content: 'first release', deadline: '2031-06-01' }, { from: edit })).status).toBe(303);
    const edited = await ok(await api(`repos/alice/proj/milestones/${m.id}`));
    expect([edited.title, edited.description, edited.due_on.slice(0, 10)]).toEqual(['v1.0', 'first release', '2031-06-01']);
    expect((await web.post(`alice/proj/milestones/${m.id}/state`, { state: 'closed' }, { from: 'alice/proj/milestones' })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/milestones/${m.id}`))).state).toBe('closed');
    expect((await web.post(`alice/proj/milestones/${m.id}/state`, { state: 'open' }, { from: 'alice/proj/milestones' })).status).toBe(303);
    expect((await ok(await api(`repos/alice/proj/milestones/${m.id}`))).state).toBe('open');
    expect((await web.post(`alice/proj/milestones/${m.id}/delete`, {}, { from: 'alice/proj/milestones' })).status).toBe(303);
    expect((await api(`repos/alice/proj/milestones/${m.id}`)).status).toBe(404);
  });

  it('refuses an empty title (422); a reader gets no forms and a forged post is refused', async () => {
    const res = await web.post('alice/proj/milestones/new', { title: ' ', content: 'kept' }, { from: 'alice/proj/milestones/new' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('>kept</textarea>');
    expect(await (await bobWeb.get('alice/proj/milestones')).text()).not.toContain('milestones/new');
    expect((await bobWeb.get('alice/proj/milestones/new')).status).toBe(403);
    expect((await bobWeb.post('alice/proj/milestones/new', { title: 'bobs' }, { from: 'alice/proj/milestones' })).status).toBe(403);
    expect(await ok(await api('repos/alice/proj/milestones?state=all'))).toEqual([]);
  });
});
