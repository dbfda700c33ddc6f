import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, issueApi, json, type Creds } from '../helpers/issue-fixtures';
import { expectNullableShape } from '../helpers/issue-shape';
import { expectShape } from '../helpers/swagger';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let h: ReturnType<typeof issueApi>;
let owner: Creds;
let writer: Creds;
let reader: Creds;

beforeAll(async () => {
  s = await startTestServer();
  h = issueApi(s);
  owner = await createUser(s, 'towner');
  writer = await createUser(s, 'twriter');
  reader = await createUser(s, 'treader');
  await h.makeRepo(owner, 'times');
  await h.collaborator(owner, 'times', writer, 'write');
  await h.collaborator(owner, 'times', reader, 'read');
  for (let i = 1; i <= 3; i++) await h.issue(owner, 'towner/times', `issue ${i}`);
  await h.issue(reader, 'towner/times', 'reader issue'); // #4
});
afterAll(async () => { await s.stop(); });

const call = (path: string, method = 'GET', who: Creds = owner, body?: unknown) =>
  h.api(`repos/towner/times/${path}`, { method, auth: as(who), json: body });
const sw = (index: number, action: string, who: Creds = owner) =>
  call(`issues/${index}/stopwatch/${action}`, action === 'delete' ? 'DELETE' : 'POST', who);

describe('stopwatches', () => {
  it('starts (201), refuses a second start (409) and lists it', async () => {
    expect((await sw(1, 'start')).status).toBe(201);
    expect((await sw(1, 'start')).status).toBe(409);
    const res = await h.api('user/stopwatches', { auth: as(owner) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[StopWatch]');
    expect(body).toMatchObject([{ issue_index: 1, issue_title: 'issue 1', repo_owner_name: 'towner', repo_name: 'times' }]);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it('stops (201) into a tracked time; a second stop is 409', async () => {
    expect((await sw(1, 'stop')).status).toBe(201);
    expect((await sw(1, 'stop')).status).toBe(409);
    const times = await json(await call('issues/1/times'));
    expectNullableShape(times, '[TrackedTime]');
    expect(times).toHaveLength(1);
    expect(times[0]).toMatchObject({ issue_id: expect.any(Number), user_name: 'towner' });
  });

  it('starting another stopwatch stops the running one', async () => {
    expect((await sw(2, 'start')).status).toBe(201);
    expect((await sw(3, 'start')).status).toBe(201);
    const running = await json(await h.api('user/stopwatches', { auth: as(owner) }));
    expect(running.map((r: { issue_index: number }) => r.issue_index)).toEqual([3]);
    expect(await json(await call('issues/2/times'))).toHaveLength(1);
  });

  it('cancels (204) without tracking; cancelling nothing is 409', async () => {
    expect((await sw(3, 'delete')).status).toBe(204);
    expect((await sw(3, 'delete')).status).toBe(409);
    expect(await json(await call('issues/3/times'))).toHaveLength(0);
  });

  it('needs a writer (403) and an existing issue (404)', async () => {
    expect((await sw(1, 'start', reader)).status).toBe(403);
    expect((await sw(99, 'start')).status).toBe(404);
  });
});

describe('tracked times', () => {
  let writerTime = 0;

  it('adds time (200 TrackedTime) with a given creation time', async () => {
    const res = await call('issues/3/times', 'POST', writer, { time: 3600, created: '2024-01-02T03:04:05Z' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectNullableShape(body, 'TrackedTime');
    expect(body).toMatchObject({ time: 3600, user_name: 'twriter', created: '2024-01-02T03:04:05Z' });
    expect(body.issue.number).toBe(3);
    writerTime = body.id;
  });

  it('lets a repository admin add time for another user', async () => {
    const body = await json(await call('issues/3/times', 'POST', owner, { time: 60, user_name: 'twriter' }));
    expect(body.user_name).toBe('twriter');
  });

  it('validates the body (422)', async () => {
    expect((await call('issues/3/times', 'POST', writer, { time: 0 })).status).toBe(422);
    expect((await call('issues/3/times', 'POST', writer, {})).status).toBe(422);
    expect((await call('issues/3/times', 'POST', writer, { time: 5, created: 'yesterday' })).status).toBe(422);
  });

  it('only contributors, posters and assignees track time when the repository says so', async () => {
    expect((await call('issues/1/times', 'POST', reader, { time: 5 })).status).toBe(403);
    expect((await call('issues/4/times', 'POST', reader, { time: 5 })).status).toBe(200);
    await h.tracker(owner, 'times', { allow_only_contributors_to_track_time: false });
    expect((await call('issues/1/times', 'POST', reader, { time: 7 })).status).toBe(200);
    await h.tracker(owner, 'times', {});
  });

  it('filters: readers see only their own times, writers anyone\'s', async () => {
    const mine = await json(await call('times', 'GET', reader));
    expectNullableShape(mine, '[TrackedTime]');
    expect(new Set(mine.map((t: { user_name: string }) => t.user_name))).toEqual(new Set(['treader']));
    expect((await call('times?user=twriter', 'GET', reader)).status).toBe(403);
    const res = await call('times?user=twriter', 'GET', owner);
    expect(res.status).toBe(200);
    expect((await json(res)).map((t: { time: number }) => t.time).sort()).toEqual([3600, 60].sort());
    expect(res.headers.get('x-total-count')).toBe('2');
    const before = await json(await call('times?before=2024-06-01T00:00:00Z', 'GET', owner));
    expect(before.map((t: { time: number }) => t.time)).toEqual([3600]);
    const since = await json(await call('times?since=2024-06-01T00:00:00Z', 'GET', owner));
    expect(since.length).toBeGreaterThan(1);
    expect((await call('times?since=garbage', 'GET', owner)).status).toBe(422);
    expect((await call('times?user=nobody', 'GET', owner)).status).toBe(404);
  });

  it('lists a user\'s times in the repository (deprecated /times/{user})', async () => {
    const res = await call('times/twriter', 'GET', owner);
    expect(res.status).toBe(200);
    const body = await json(res);
    expectNullableShape(body, '[TrackedTime]');
    expect(body.map((t: { user_name: string }) => t.user_name)).toEqual(['twriter', 'twriter']);
    expect((await call('times/twriter', 'GET', reader)).status).toBe(403);
    expect((await call('times/treader', 'GET', reader)).status).toBe(200);
    expect((await call('times/nobody', 'GET', owner)).status).toBe(404);
  });

  it('lists the caller\'s times across repositories (GET /user/times)', async () => {
    const res = await h.api('user/times', { auth: as(writer) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectNullableShape(body, '[TrackedTime]');
    expect(body.every((t: { user_name: string }) => t.user_name === 'twriter')).toBe(true);
    expect(body).toHaveLength(2);
  });

  it('deletes one time: only its owner or a site admin (403), then 404', async () => {
    expect((await call(`issues/3/times/${writerTime}`, 'DELETE', owner)).status).toBe(403);
    expect((await call(`issues/2/times/${writerTime}`, 'DELETE', writer)).status).toBe(404);
    expect((await call(`issues/3/times/${writerTime}`, 'DELETE', writer)).status).toBe(204);
    expect((await call(`issues/3/times/${writerTime}`, 'DELETE', writer)).status).toBe(404);
    const admin = { username: s.admin.username, password: s.admin.password, id: 0 };
    const other = await json(await call('issues/3/times', 'POST', writer, { time: 11 }));
    expect((await call(`issues/3/times/${other.id}`, 'DELETE', admin)).status).toBe(204);
  });

  it('resets the caller\'s times on an issue (204), then 404', async () => {
    expect((await call('issues/3/times', 'DELETE', writer)).status).toBe(204);
    expect((await call('issues/3/times', 'DELETE', writer)).status).toBe(404);
    const left = await json(await call('issues/3/times?user=twriter', 'GET', owner));
    expect(left).toEqual([]);
    const events = await s.hearth.db.selectFrom('comment').select(['type', 'content']).where('type', 'in', [12, 13, 14, 15, 26]).execute();
    expect(new Set(events.map((e) => e.type))).toEqual(new Set([12, 13, 14, 15, 26]));
  });

  it('answers as Gitea when time tracking is disabled', async () => {
    await h.tracker(owner, 'times', { enable_time_tracker: false });
    const add = await call('issues/1/times', 'POST', owner, { time: 5 });
    expect(add.status).toBe(400);
    expect((await json(add)).message).toBe('time tracking disabled');
    expect((await call('issues/1/times', 'DELETE', owner)).status).toBe(400);
    expect((await call('issues/1/times')).status).toBe(404);
    expect((await call('times')).status).toBe(400);
    expect((await sw(1, 'start')).status).toBe(403);
    await h.tracker(owner, 'times', {});
  });
});

describe('deadline', () => {
  it('sets (201 IssueDeadline), changes and removes a deadline; writers only', async () => {
    const res = await call('issues/1/deadline', 'POST', writer, { due_date: '2030-05-06T12:00:00Z' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'IssueDeadline');
    expect(body.due_date.slice(0, 10)).toBe('2030-05-06');
    const issue = await json(await call('issues/1'));
    expect(issue.due_date).toBe(body.due_date);
    expect((await call('issues/1/deadline', 'POST', reader, { due_date: '2030-05-06T12:00:00Z' })).status).toBe(403);
    expect((await call('issues/1/deadline', 'POST', writer, { due_date: 'soon' })).status).toBe(422);
    const removed = await call('issues/1/deadline', 'POST', writer, { due_date: null });
    expect(removed.status).toBe(201);
    expect(await json(removed)).toEqual({ due_date: null });
    expect((await json(await call('issues/1'))).due_date).toBeNull();
  });
});
