import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, issueApi, json, type Creds } from '../helpers/issue-fixtures';
import { expectNullableShape } from '../helpers/issue-shape';
import { expectShape } from '../helpers/swagger';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let h: ReturnType<typeof issueApi>;
let owner: Creds;
let writer: Creds;

beforeAll(async () => {
  s = await startTestServer();
  h = issueApi(s);
  owner = await createUser(s, 'powner');
  writer = await createUser(s, 'pwriter');
  await h.makeRepo(owner, 'pins');
  await h.collaborator(owner, 'pins', writer, 'write');
  for (let i = 1; i <= 5; i++) await h.issue(owner, 'powner/pins', `issue ${i}`);
});
afterAll(async () => { await s.stop(); });

const pin = (index: number, method = 'POST', who: Creds = owner) => h.api(`repos/powner/pins/issues/${index}/pin`, { method, auth: as(who) });
const pinned = async () => {
  const res = await h.api('repos/powner/pins/issues/pinned', { auth: as(owner) });
  expect(res.status).toBe(200);
  const body = await json(res);
  expectNullableShape(body, '[Issue]');
  return body.map((i: { number: number; pin_order: number }) => [i.number, i.pin_order]);
};

describe('issue pins', () => {
  it('starts with nothing pinned and new pins allowed', async () => {
    expect(await pinned()).toEqual([]);
    const res = await h.api('repos/powner/pins/new_pin_allowed', { auth: as(owner) });
    const body = await json(res);
    expectShape(body, 'NewIssuePinsAllowed');
    expect(body).toEqual({ issues: true, pull_requests: true });
  });

  it('pins in order (204); pinning twice changes nothing', async () => {
    expect((await pin(3)).status).toBe(204);
    expect((await pin(1)).status).toBe(204);
    expect((await pin(1)).status).toBe(204);
    expect(await pinned()).toEqual([[3, 1], [1, 2]]);
    const issue = await json(await h.api('repos/powner/pins/issues/3', { auth: as(owner) }));
    expect(issue.pin_order).toBe(1);
  });

  it('refuses a fourth pin (400) and reports no new pins allowed', async () => {
    expect((await pin(5)).status).toBe(204);
    const res = await pin(2);
    expect(res.status).toBe(400);
    expect((await json(res)).message).toContain('pinned');
    expect((await json(await h.api('repos/powner/pins/new_pin_allowed', { auth: as(owner) }))).issues).toBe(false);
  });

  it('moves a pin (204), to the position asked even past the end, as Gitea', async () => {
    expect((await h.api('repos/powner/pins/issues/5/pin/1', { method: 'PATCH', auth: as(owner) })).status).toBe(204);
    expect(await pinned()).toEqual([[5, 1], [3, 2], [1, 3]]);
    expect((await h.api('repos/powner/pins/issues/5/pin/9', { method: 'PATCH', auth: as(owner) })).status).toBe(204);
    expect(await pinned()).toEqual([[3, 1], [1, 2], [5, 9]]);
    expect((await h.api('repos/powner/pins/issues/5/pin/0', { method: 'PATCH', auth: as(owner) })).status).toBe(422);
  });

  it('unpins (204) and closes the gap', async () => {
    expect((await pin(3, 'DELETE')).status).toBe(204);
    expect(await pinned()).toEqual([[1, 1], [5, 8]]);
    expect((await pin(3, 'DELETE')).status).toBe(204);
  });

  it('records pin and unpin events', async () => {
    const types = await s.hearth.db.selectFrom('comment').select('type').where('type', 'in', [36, 37]).execute();
    expect(types.filter((t) => t.type === 36).length).toBe(3);
    expect(types.filter((t) => t.type === 37).length).toBe(1);
  });

  it('needs a repository admin (403), and an existing issue (404)', async () => {
    expect((await pin(2, 'POST', writer)).status).toBe(403);
    expect((await pin(99)).status).toBe(404);
    expect((await h.api('repos/powner/pins/issues/2/pin', { method: 'POST' })).status).toBe(401);
  });

  it('answers 404 for pinned issues when the issues unit is off', async () => {
    const off = await h.api('repos/powner/pins', { method: 'PATCH', auth: as(owner), json: { has_issues: false } });
    expect(off.status).toBe(200);
    expect((await h.api('repos/powner/pins/issues/pinned', { auth: as(owner) })).status).toBe(404);
    await h.api('repos/powner/pins', { method: 'PATCH', auth: as(owner), json: { has_issues: true } });
  });
});

describe('issue locks', () => {
  const lock = (index: number, method: string, who: Creds, body?: unknown) =>
    h.api(`repos/powner/pins/issues/${index}/lock`, { method, auth: as(who), json: body });
  const comment = (who: Creds) => h.api('repos/powner/pins/issues/4/comments', { method: 'POST', auth: as(who), json: { body: 'hi' } });

  it('locks for writers only (403), keeps the reason on the timeline, and stops comments from non-writers', async () => {
    const reader = await createUser(s, 'preader');
    expect((await lock(4, 'PUT', reader, { lock_reason: 'spam' })).status).toBe(403);
    expect((await lock(4, 'PUT', writer, { lock_reason: 'Too heated' })).status).toBe(204);
    expect((await lock(4, 'PUT', writer, {})).status).toBe(204);
    const issue = await json(await h.api('repos/powner/pins/issues/4', { auth: as(owner) }));
    expect(issue.is_locked).toBe(true);
    expect((await comment(reader)).status).toBe(403);
    expect((await comment(writer)).status).toBe(201);
    const timeline = await json(await h.api('repos/powner/pins/issues/4/timeline', { auth: as(owner) }));
    const event = timeline.find((e: { type: string }) => e.type === 'lock');
    expect(event).toMatchObject({ body: 'Too heated', user: { login: 'pwriter' } });
    expect(timeline.filter((e: { type: string }) => e.type === 'lock')).toHaveLength(1);
  });

  it('unlocks (204), after which anyone who can read may comment again', async () => {
    expect((await lock(4, 'DELETE', writer)).status).toBe(204);
    expect((await json(await h.api('repos/powner/pins/issues/4', { auth: as(owner) }))).is_locked).toBe(false);
    const reader = await createUser(s, 'preader2');
    expect((await comment(reader)).status).toBe(201);
    expect((await lock(99, 'DELETE', owner)).status).toBe(404);
  });
});
