import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { as, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let writer: Creds;
let reader: Creds;

const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
const newLabel = (body: Record<string, unknown>, who: Creds = owner, repo = 'owner/pub') =>
  api(`repos/${repo}/labels`, { method: 'POST', auth: as(who), json: body });
const issueLabels = (method: string, index: number, labels?: unknown[], who: Creds = owner, repo = 'owner/pub') =>
  api(`repos/${repo}/issues/${index}/labels`, { method, auth: as(who), json: labels === undefined ? undefined : { labels } });
const names = (body: { name: string }[]) => body.map((l) => l.name);
const labelRow = (id: number) => s.hearth.db.selectFrom('label').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const ids: Record<string, number> = {};

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'owner');
  writer = await createUser(s, 'writer');
  reader = await createUser(s, 'reader');
  await api('user/repos', { method: 'POST', auth: as(owner), json: { name: 'pub' } });
  for (const [u, permission] of [[writer, 'write'], [reader, 'read']] as const) {
    await api(`repos/owner/pub/collaborators/${u.username}`, { method: 'PUT', auth: as(owner), json: { permission } });
  }
  for (let i = 0; i < 3; i++) await api('repos/owner/pub/issues', { method: 'POST', auth: as(owner), json: { title: `issue ${i + 1}` } });
});
afterAll(async () => { await s.stop(); });

describe('repository labels', () => {
  it('creates a label (201, every Label field, color without #)', async () => {
    const res = await newLabel({ name: 'bug', color: '#EE0701', description: 'broken' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'Label');
    expectAllFields(body, 'Label');
    expect(body).toMatchObject({ name: 'bug', color: 'ee0701', description: 'broken', exclusive: false, is_archived: false });
    expect(body.url).toBe(`${s.hearth.config.server.root_url}api/v1/repos/owner/pub/labels/${body.id}`);
    ids.bug = body.id;
    for (const [name, extra] of [['feature', {}], ['priority/high', { exclusive: true }], ['priority/low', { exclusive: true }], ['priority/note', {}]] as const) {
      ids[name] = (await json(await newLabel({ name, color: 'abc', ...extra }, writer))).id;
    }
  });

  it('refuses bad colors and missing fields (422), readers (403), anonymous callers (401)', async () => {
    for (const body of [{ name: 'x', color: 'red' }, { name: 'x', color: '#12345' }, { name: 'x' }, { color: '#fff' }, { name: '', color: '#fff' }]) {
      expect((await newLabel(body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await newLabel({ name: 'nope', color: '#fff' }, reader)).status).toBe(403);
    expect((await api('repos/owner/pub/labels', { method: 'POST', json: { name: 'n', color: '#fff' } })).status).toBe(401);
  });

  it('lists by name with paging headers, gets by id or name', async () => {
    const res = await api('repos/owner/pub/labels?limit=2');
    const body = await json(res);
    expectShape(body, '[Label]');
    expect(names(body)).toEqual(['bug', 'feature']);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect((await json(await api(`repos/owner/pub/labels/${ids.bug}`))).name).toBe('bug');
    expect((await json(await api('repos/owner/pub/labels/feature'))).id).toBe(ids.feature);
    expect((await api('repos/owner/pub/labels/999999')).status).toBe(404);
  });

  it('edits and deletes (writers only)', async () => {
    const tmp = await json(await newLabel({ name: 'tmp', color: '#000000' }));
    const res = await api(`repos/owner/pub/labels/${tmp.id}`, { method: 'PATCH', auth: as(writer), json: { color: '#ffffff', description: 'd' } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ name: 'tmp', color: 'ffffff', description: 'd' });
    expect((await api(`repos/owner/pub/labels/${tmp.id}`, { method: 'PATCH', auth: as(writer), json: { color: 'nope' } })).status).toBe(422);
    expect((await api(`repos/owner/pub/labels/${tmp.id}`, { method: 'DELETE', auth: as(reader) })).status).toBe(403);
    expect((await api(`repos/owner/pub/labels/${tmp.id}`, { method: 'DELETE', auth: as(writer) })).status).toBe(204);
    expect((await api(`repos/owner/pub/labels/${tmp.id}`)).status).toBe(404);
  });
});

describe('labels of an issue', () => {
  it('adds by id or name and answers every label of the issue (LabelList)', async () => {
    let res = await issueLabels('POST', 1, [ids.bug]);
    expect(res.status).toBe(200);
    expectShape(await json(res), '[Label]');
    res = await issueLabels('POST', 1, ['feature']);
    expect(names(await json(res))).toEqual(['bug', 'feature']);
    expect(names(await json(await api('repos/owner/pub/issues/1/labels')))).toEqual(['bug', 'feature']);
    expect(names((await json(await api('repos/owner/pub/issues/1'))).labels)).toEqual(['bug', 'feature']);
    expect(await labelRow(ids.bug)).toMatchObject({ num_issues: 1, num_closed_issues: 0 });
  });

  it('refuses unknown labels (422), mixed ids and names (400), readers (403)', async () => {
    expect((await issueLabels('POST', 1, [999999])).status).toBe(422);
    expect((await issueLabels('POST', 1, ['no-such-label'])).status).toBe(422);
    expect((await issueLabels('PUT', 1, [ids.bug, 424242])).status).toBe(422);
    expect((await issueLabels('POST', 1, [ids.bug, 'feature'])).status).toBe(400);
    expect((await issueLabels('POST', 1, [ids.bug], reader)).status).toBe(403);
    expect((await issueLabels('POST', 99, [ids.bug])).status).toBe(404);
    expect(names(await json(await api('repos/owner/pub/issues/1/labels')))).toEqual(['bug', 'feature']);
  });

  it('keeps one exclusive label per scope: adding priority/low removes priority/high', async () => {
    await issueLabels('POST', 2, [ids['priority/high'], ids['priority/note']]);
    const body = await json(await issueLabels('POST', 2, [ids['priority/low']]));
    expect(names(body)).toEqual(['priority/low', 'priority/note']);
    const both = await json(await issueLabels('PUT', 3, [ids['priority/high'], ids['priority/low'], ids.bug]));
    expect(names(both)).toEqual(['bug', 'priority/low']);
    expect(await labelRow(ids['priority/high'])).toMatchObject({ num_issues: 0 });
    expect(await labelRow(ids['priority/low'])).toMatchObject({ num_issues: 2 });
  });

  it('replaces, removes one, clears; records label events', async () => {
    expect(names(await json(await issueLabels('PUT', 1, [ids.feature])))).toEqual(['feature']);
    expect((await api(`repos/owner/pub/issues/1/labels/${ids.feature}`, { method: 'DELETE', auth: as(writer) })).status).toBe(204);
    expect((await api(`repos/owner/pub/issues/1/labels/${ids.feature}`, { method: 'DELETE', auth: as(writer) })).status).toBe(204);
    expect((await api('repos/owner/pub/issues/1/labels/999999', { method: 'DELETE', auth: as(writer) })).status).toBe(422);
    await issueLabels('POST', 1, [ids.bug, ids.feature]);
    expect((await api('repos/owner/pub/issues/1/labels', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect(await json(await api('repos/owner/pub/issues/1/labels'))).toEqual([]);
    const issue = await s.hearth.db.selectFrom('issue').select('id').where('index', '=', 1).executeTakeFirstOrThrow();
    const events = await s.hearth.db.selectFrom('comment').select(['type', 'label_id', 'content'])
      .where('issue_id', '=', issue.id).orderBy('id').execute();
    expect(events.every((e) => e.type === 7)).toBe(true);
    expect(events.slice(0, 3)).toEqual([
      { type: 7, label_id: ids.bug, content: '1' }, { type: 7, label_id: ids.feature, content: '1' }, { type: 7, label_id: ids.bug, content: '' },
    ]);
  });

  it('keeps label counters exact through close, reopen and delete', async () => {
    const issue = await json(await api('repos/owner/pub/issues', { method: 'POST', auth: as(owner), json: { title: 'counted', labels: [ids.feature] } }));
    const before = await labelRow(ids.feature);
    await api(`repos/owner/pub/issues/${issue.number}`, { method: 'PATCH', auth: as(owner), json: { state: 'closed' } });
    expect(await labelRow(ids.feature)).toMatchObject({ num_issues: before.num_issues, num_closed_issues: before.num_closed_issues + 1 });
    await api(`repos/owner/pub/issues/${issue.number}`, { method: 'DELETE', auth: as(owner) });
    expect(await labelRow(ids.feature)).toMatchObject({ num_issues: before.num_issues - 1, num_closed_issues: before.num_closed_issues });
  });
});

describe('deleting a label in use', () => {
  it('takes it off its issues along with its label events', async () => {
    const label = await json(await newLabel({ name: 'short-lived', color: '#0f0' }));
    await issueLabels('POST', 2, [label.id]);
    expect((await api(`repos/owner/pub/labels/${label.id}`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect(names(await json(await api('repos/owner/pub/issues/2/labels')))).not.toContain('short-lived');
    const events = await s.hearth.db.selectFrom('comment').select('id').where('label_id', '=', label.id).execute();
    expect(events).toEqual([]);
  });
});

describe('organization labels on the organization\'s repositories', () => {
  it('applies the owning organization\'s labels (with their org URL), not another\'s (422)', async () => {
    await createOrg(s, owner, 'painters');
    await createOrg(s, owner, 'sculptors');
    const orgLabel = await json(await api('orgs/painters/labels', { method: 'POST', auth: as(owner), json: { name: 'org-wide', color: '#123456' } }));
    const otherOrg = await json(await api('orgs/sculptors/labels', { method: 'POST', auth: as(owner), json: { name: 'elsewhere', color: '#123456' } }));
    await api('orgs/painters/repos', { method: 'POST', auth: as(owner), json: { name: 'canvas' } });
    await api('repos/painters/canvas/issues', { method: 'POST', auth: as(owner), json: { title: 'org issue' } });
    const res = await issueLabels('POST', 1, [orgLabel.id], owner, 'painters/canvas');
    expect(res.status).toBe(200);
    const [label] = await json(res);
    expect(label.url).toBe(`${s.hearth.config.server.root_url}api/v1/orgs/painters/labels/${orgLabel.id}`);
    expect((await issueLabels('POST', 1, [otherOrg.id], owner, 'painters/canvas')).status).toBe(422);
    expect((await issueLabels('POST', 1, [orgLabel.id])).status).toBe(422);
    const listed = await json(await api('repos/painters/canvas/issues?labels=org-wide'));
    expect(listed.map((i: { title: string }) => i.title)).toEqual(['org issue']);
  });
});
