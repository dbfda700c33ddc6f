import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNullableShape } from '../helpers/issue-shape';
import { as, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let writer: Creds;
let reader: Creds;

const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
const newMilestone = (body: Record<string, unknown>, who: Creds = owner) =>
  api('repos/owner/pub/milestones', { method: 'POST', auth: as(who), json: body });
const editMilestone = (id: string | number, body: Record<string, unknown>, who: Creds = owner) =>
  api(`repos/owner/pub/milestones/${id}`, { method: 'PATCH', auth: as(who), json: body });
const newIssue = (body: Record<string, unknown>) => api('repos/owner/pub/issues', { method: 'POST', auth: as(owner), json: body }).then(json);
const editIssue = (index: number, body: Record<string, unknown>) =>
  api(`repos/owner/pub/issues/${index}`, { method: 'PATCH', auth: as(owner), json: body }).then(json);
const milestone = (id: number) => api(`repos/owner/pub/milestones/${id}`).then(json);
const repoRow = () => s.hearth.db.selectFrom('repository').selectAll().where('lower_name', '=', 'pub').executeTakeFirstOrThrow();

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'owner');
  writer = await createUser(s, 'writer');
  reader = await createUser(s, 'reader');
  await api('user/repos', { method: 'POST', auth: as(owner), json: { name: 'pub' } });
  for (const [u, permission] of [[writer, 'write'], [reader, 'read']] as const) {
    await api(`repos/owner/pub/collaborators/${u.username}`, { method: 'PUT', auth: as(owner), json: { permission } });
  }
});
afterAll(async () => { await s.stop(); });

describe('POST /repos/{owner}/{repo}/milestones', () => {
  it('creates an open milestone (201, every Milestone field)', async () => {
    const res = await newMilestone({ title: 'v1.0', description: 'first', due_on: '2030-06-01T12:00:00Z' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectNullableShape(body, 'Milestone');
    expectAllFields(body, 'Milestone');
    expect(body).toMatchObject({
      title: 'v1.0', description: 'first', state: 'open', open_issues: 0, closed_issues: 0,
      due_on: '2030-06-01T12:00:00Z', closed_at: null,
    });
    expect((await repoRow()).num_milestones).toBe(1);
  });

  it('creates a closed one, and one without a due date (due_on null)', async () => {
    const closed = await json(await newMilestone({ title: 'old', state: 'closed' }, writer));
    expect(closed).toMatchObject({ state: 'closed', due_on: null, closed_at: expect.any(String) });
    expect(await repoRow()).toMatchObject({ num_milestones: 2, num_closed_milestones: 1 });
  });

  it('refuses a missing title or bad date (422), readers (403), anonymous (401)', async () => {
    expect((await newMilestone({})).status).toBe(422);
    expect((await newMilestone({ title: '' })).status).toBe(422);
    expect((await newMilestone({ title: 'x', due_on: 'next week' })).status).toBe(422);
    expect((await newMilestone({ title: 'x', state: 'sideways' })).status).toBe(422);
    expect((await newMilestone({ title: 'x' }, reader)).status).toBe(403);
    expect((await api('repos/owner/pub/milestones', { method: 'POST', json: { title: 'x' } })).status).toBe(401);
  });
});

describe('GET /repos/{owner}/{repo}/milestones', () => {
  it('lists open ones by default; state closed and all; name filter; paging', async () => {
    await newMilestone({ title: 'v2.0', due_on: '2031-01-01T00:00:00Z' });
    const res = await api('repos/owner/pub/milestones');
    const body = await json(res);
    expectNullableShape(body, '[Milestone]');
    expect(body.map((m: { title: string }) => m.title)).toEqual(['v1.0', 'v2.0']);
    expect(res.headers.get('x-total-count')).toBe('2');
    const closed = await json(await api('repos/owner/pub/milestones?state=closed'));
    expect(closed.map((m: { title: string }) => m.title)).toEqual(['old']);
    expect((await json(await api('repos/owner/pub/milestones?state=all'))).length).toBe(3);
    expect((await json(await api('repos/owner/pub/milestones?state=all&name=V2'))).map((m: { title: string }) => m.title)).toEqual(['v2.0']);
    const page = await api('repos/owner/pub/milestones?state=all&limit=1&page=2');
    expect((await json(page)).length).toBe(1);
    expect(page.headers.get('link')).toContain('rel="prev"');
  });
});

describe('GET/PATCH/DELETE /repos/{owner}/{repo}/milestones/{id}', () => {
  it('finds by id, or by name when no milestone has that id', async () => {
    const [v1] = await json(await api('repos/owner/pub/milestones'));
    expect((await milestone(v1.id)).title).toBe('v1.0');
    expect((await json(await api('repos/owner/pub/milestones/v2.0'))).title).toBe('v2.0');
    const numeric = await json(await newMilestone({ title: '12345' }));
    expect((await json(await api('repos/owner/pub/milestones/12345'))).id).toBe(numeric.id);
    expect((await api('repos/owner/pub/milestones/no-such')).status).toBe(404);
    expect((await api('repos/owner/pub/milestones/999999')).status).toBe(404);
  });

  it('edits title, description, due date and state (200)', async () => {
    const res = await editMilestone('v2.0', { title: 'v2.0-final', description: 'd', due_on: '2032-02-02T00:00:00Z', state: 'closed' }, writer);
    expect(res.status).toBe(200);
    const body = await json(res);
    expectNullableShape(body, 'Milestone');
    expect(body).toMatchObject({ title: 'v2.0-final', description: 'd', due_on: '2032-02-02T00:00:00Z', state: 'closed', closed_at: expect.any(String) });
    expect(await json(await editMilestone(body.id, { state: 'open' }))).toMatchObject({ state: 'open', closed_at: null, title: 'v2.0-final' });
    expect((await editMilestone(body.id, { title: 'x' }, reader)).status).toBe(403);
    expect((await editMilestone(body.id, { due_on: 'never' })).status).toBe(422);
  });

  it('keeps open_issues and closed_issues exact through create, close, reopen, move and delete', async () => {
    const [v1] = await json(await api('repos/owner/pub/milestones'));
    const other = await json(await newMilestone({ title: 'other' }));
    const a = await newIssue({ title: 'a', milestone: v1.id });
    const b = await newIssue({ title: 'b', milestone: v1.id, closed: true });
    expect(await milestone(v1.id)).toMatchObject({ open_issues: 1, closed_issues: 1 });
    await editIssue(a.number, { state: 'closed' });
    expect(await milestone(v1.id)).toMatchObject({ open_issues: 0, closed_issues: 2 });
    await editIssue(b.number, { state: 'open' });
    expect(await milestone(v1.id)).toMatchObject({ open_issues: 1, closed_issues: 1 });
    await editIssue(b.number, { milestone: other.id });
    expect(await milestone(v1.id)).toMatchObject({ open_issues: 0, closed_issues: 1 });
    expect(await milestone(other.id)).toMatchObject({ open_issues: 1, closed_issues: 0 });
    await api(`repos/owner/pub/issues/${a.number}`, { method: 'DELETE', auth: as(owner) });
    expect(await milestone(v1.id)).toMatchObject({ open_issues: 0, closed_issues: 0 });
    const listed = await json(await api(`repos/owner/pub/issues?milestones=other`));
    expect(listed.map((i: { number: number }) => i.number)).toEqual([b.number]);
  });

  it('deletes (204): its issues lose the milestone; counters follow', async () => {
    const other = await json(await api('repos/owner/pub/milestones/other'));
    const before = await repoRow();
    expect((await api(`repos/owner/pub/milestones/${other.id}`, { method: 'DELETE', auth: as(reader) })).status).toBe(403);
    expect((await api(`repos/owner/pub/milestones/${other.id}`, { method: 'DELETE', auth: as(writer) })).status).toBe(204);
    expect((await api(`repos/owner/pub/milestones/${other.id}`)).status).toBe(404);
    expect((await repoRow()).num_milestones).toBe(before.num_milestones - 1);
    const issues = await json(await api('repos/owner/pub/issues?state=all'));
    expect(issues.every((i: { milestone: unknown }) => i.milestone === null)).toBe(true);
  });
});
