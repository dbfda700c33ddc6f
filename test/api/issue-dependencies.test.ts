import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, issueApi, json, type Creds } from '../helpers/issue-fixtures';
import { expectNullableShape } from '../helpers/issue-shape';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let h: ReturnType<typeof issueApi>;
let owner: Creds;
let reader: Creds;
let outsider: Creds;

beforeAll(async () => {
  s = await startTestServer();
  h = issueApi(s);
  owner = await createUser(s, 'downer');
  reader = await createUser(s, 'dreader');
  outsider = await createUser(s, 'doutsider');
  await h.makeRepo(owner, 'deps');
  await h.makeRepo(owner, 'other');
  await h.makeRepo(owner, 'secret', { private: true });
  await h.collaborator(owner, 'deps', reader, 'read');
  for (let i = 1; i <= 4; i++) await h.issue(owner, 'downer/deps', `issue ${i}`);
  await h.issue(owner, 'downer/other', 'other 1');
  await h.issue(owner, 'downer/secret', 'secret 1');
});
afterAll(async () => { await s.stop(); });

const deps = (index: number, method = 'GET', body?: unknown, who: Creds = owner, kind = 'dependencies') =>
  h.api(`repos/downer/deps/issues/${index}/${kind}`, { method, auth: as(who), json: body });

describe('issue dependencies', () => {
  it('adds a dependency (201, the target issue) and lists it', async () => {
    const res = await deps(1, 'POST', { index: 2, owner: 'downer', repo: 'deps' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectNullableShape(body, 'Issue');
    expect(body.number).toBe(1);
    const list = await deps(1);
    expect(list.status).toBe(200);
    const items = await json(list);
    expectNullableShape(items, '[Issue]');
    expect(items.map((i: { number: number }) => i.number)).toEqual([2]);
    const blocks = await json(await deps(2, 'GET', undefined, owner, 'blocks'));
    expectNullableShape(blocks, '[Issue]');
    expect(blocks.map((i: { number: number }) => i.number)).toEqual([1]);
  });

  it('defaults owner and repo to the route repository; refuses duplicates and cycles', async () => {
    expect((await deps(3, 'POST', { index: 4 })).status).toBe(201);
    expect((await deps(3, 'POST', { index: 4 })).status).toBe(409);
    expect((await deps(4, 'POST', { index: 3 })).status).toBe(409);
    expect((await deps(3, 'POST', { index: 3 })).status).toBe(422);
  });

  it('answers 404 for a missing issue, on either side', async () => {
    expect((await deps(1, 'POST', { index: 99, owner: 'downer', repo: 'deps' })).status).toBe(404);
    expect((await deps(99, 'POST', { index: 1 })).status).toBe(404);
    expect((await deps(1, 'POST', { index: 1, owner: 'downer', repo: 'nope' })).status).toBe(404);
  });

  it('allows cross-repository dependencies the caller can read', async () => {
    const res = await deps(2, 'POST', { index: 1, owner: 'downer', repo: 'other' });
    expect(res.status).toBe(201);
    const list = await json(await deps(2));
    expect(list.map((i: { repository: { name: string } }) => i.repository.name)).toEqual(['other']);
    // The blocking issue lists it back from the other repository.
    const back = await json(await h.api('repos/downer/other/issues/1/blocks', { auth: as(owner) }));
    expect(back.map((i: { number: number }) => i.number)).toEqual([2]);
  });

  it('hides issues of repositories the caller cannot read', async () => {
    expect((await deps(4, 'POST', { index: 1, owner: 'downer', repo: 'secret' })).status).toBe(201);
    expect((await json(await deps(4, 'GET', undefined, owner))).length).toBe(1);
    expect((await json(await deps(4, 'GET', undefined, reader))).length).toBe(0);
  });

  it('refuses writes from readers (404, as Gitea) and anonymous callers (401)', async () => {
    expect((await deps(1, 'POST', { index: 3 }, reader)).status).toBe(404);
    const anon = await h.api('repos/downer/deps/issues/1/dependencies', { method: 'POST', json: { index: 3 } });
    expect(anon.status).toBe(401);
    expect((await deps(1, 'POST', { index: 3 }, outsider)).status).toBe(404);
  });

  it('blocks: the body issue becomes dependent on the route issue', async () => {
    const res = await deps(4, 'POST', { index: 1 }, owner, 'blocks');
    expect(res.status).toBe(201);
    expect((await json(res)).number).toBe(4);
    const onOne = await json(await deps(1));
    expect(onOne.map((i: { number: number }) => i.number)).toEqual([2, 4]);
    const del = await deps(4, 'DELETE', { index: 1 }, owner, 'blocks');
    expect(del.status).toBe(201);
    expectNullableShape(await json(del), 'Issue');
  });

  it('refuses to close an issue with open dependencies (412), then allows it', async () => {
    const close = () => h.api('repos/downer/deps/issues/1', { method: 'PATCH', auth: as(owner), json: { state: 'closed' } });
    const refused = await close();
    expect(refused.status).toBe(412);
    expect((await json(refused)).message).toContain('open dependencies');
    expect((await h.api('repos/downer/deps/issues/2', { method: 'PATCH', auth: as(owner), json: { state: 'closed' } })).status).toBe(412);
    expect((await h.api('repos/downer/other/issues/1', { method: 'PATCH', auth: as(owner), json: { state: 'closed' } })).status).toBe(201);
    expect((await h.api('repos/downer/deps/issues/2', { method: 'PATCH', auth: as(owner), json: { state: 'closed' } })).status).toBe(201);
    expect((await close()).status).toBe(201);
  });

  it('removes a dependency (200) and records add/remove events on both issues', async () => {
    const res = await deps(3, 'DELETE', { index: 4 });
    expect(res.status).toBe(201);
    expect((await deps(3, 'DELETE', { index: 4 })).status).toBe(404);
    const rows = await s.hearth.db.selectFrom('comment').select(['type', 'issue_id', 'dependent_issue_id'])
      .where('type', 'in', [19, 20]).execute();
    expect(rows.filter((r) => r.type === 19).length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((r) => r.type === 20).length).toBe(4);
  });

  it('does not list or add dependencies when they are disabled (404)', async () => {
    await h.tracker(owner, 'deps', { enable_issue_dependencies: false });
    expect((await deps(3)).status).toBe(404);
    expect((await deps(3, 'POST', { index: 4 })).status).toBe(404);
    await h.tracker(owner, 'deps', {});
  });
});
