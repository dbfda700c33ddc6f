import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let member: Creds;
let outsider: Creds;

const create = (body: Record<string, unknown>, who: Creds = owner, org = 'painters') =>
  s.request(`api/v1/orgs/${org}/labels`, { method: 'POST', auth: as(who), json: body });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'owner');
  member = await createUser(s, 'member');
  outsider = await createUser(s, 'outsider');
  const org = await createOrg(s, owner, 'painters');
  await addTeam(s, org.id, 'devs', { mode: 2, uids: [member.id] });
});
afterAll(async () => { await s.stop(); });

describe('POST /orgs/{org}/labels', () => {
  it('creates a label (201, every Label field), the color answered without #', async () => {
    const res = await create({ name: 'bug', color: '#EE0701', description: 'Something is broken', exclusive: false });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'Label');
    expectAllFields(body, 'Label');
    expect(body).toMatchObject({ name: 'bug', color: 'ee0701', description: 'Something is broken', exclusive: false, is_archived: false });
    expect(body.url).toBe(`${s.hearth.config.server.root_url}api/v1/orgs/painters/labels/${body.id}`);
    const row = await s.hearth.db.selectFrom('label').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ org_id: expect.any(Number), repo_id: null, color: '#ee0701' });
  });

  it('accepts colors without # and the 3-digit form', async () => {
    expect((await json(await create({ name: 'feature', color: '00aabb' }))).color).toBe('00aabb');
    expect((await json(await create({ name: 'scope/one', color: '#abc', exclusive: true, is_archived: true }))))
      .toMatchObject({ color: 'aabbcc', exclusive: true, is_archived: true });
  });

  it('refuses a bad color, a missing color or name (422)', async () => {
    for (const body of [{ name: 'x', color: 'red' }, { name: 'x', color: '#12345' }, { name: 'x', color: '' }, { name: 'x' }, { color: '#fff' }, { name: '', color: '#fff' }]) {
      expect((await create(body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('is for owners only (403), signed in (401)', async () => {
    expect((await create({ name: 'nope', color: '#fff' }, member)).status).toBe(403);
    expect((await create({ name: 'nope', color: '#fff' }, outsider)).status).toBe(403);
    expect((await s.request('api/v1/orgs/painters/labels', { method: 'POST', json: { name: 'n', color: '#fff' } })).status).toBe(401);
  });
});

describe('GET /orgs/{org}/labels', () => {
  it('lists by name to anyone (LabelList) with paging headers', async () => {
    const res = await s.request('api/v1/orgs/painters/labels');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[Label]');
    expect(body.map((l: { name: string }) => l.name)).toEqual(['bug', 'feature', 'scope/one']);
    expect(res.headers.get('x-total-count')).toBe('3');
    const page = await s.request('api/v1/orgs/painters/labels?limit=1&page=2');
    expect((await json(page)).map((l: { name: string }) => l.name)).toEqual(['feature']);
    expect(page.headers.get('link')).toContain('rel="next"');
  });

  it('sorts reverse-alphabetically when asked', async () => {
    const body = await json(await s.request('api/v1/orgs/painters/labels?sort=reversealphabetically'));
    expect(body.map((l: { name: string }) => l.name)).toEqual(['scope/one', 'feature', 'bug']);
  });
});

describe('GET /orgs/{org}/labels/{id}', () => {
  it('answers a label by id or by name (signed in)', async () => {
    const [bug] = await json(await s.request('api/v1/orgs/painters/labels'));
    const byId = await s.request(`api/v1/orgs/painters/labels/${bug.id}`, { auth: as(outsider) });
    expect(byId.status).toBe(200);
    const body = await json(byId);
    expectShape(body, 'Label');
    expect(body).toEqual(bug);
    expect(await json(await s.request('api/v1/orgs/painters/labels/bug', { auth: as(outsider) }))).toEqual(bug);
  });

  it('answers 404 for unknown ids and labels of other organizations; 401 anonymously', async () => {
    expect((await s.request('api/v1/orgs/painters/labels/99999', { auth: as(owner) })).status).toBe(404);
    await createOrg(s, owner, 'sculptors');
    const other = await json(await create({ name: 'theirs', color: '#000' }, owner, 'sculptors'));
    expect((await s.request(`api/v1/orgs/painters/labels/${other.id}`, { auth: as(owner) })).status).toBe(404);
    expect((await s.request(`api/v1/orgs/sculptors/labels/${other.id}`)).status).toBe(401);
  });
});

describe('PATCH /orgs/{org}/labels/{id}', () => {
  it('changes the fields given; is_archived follows the body (absent: not archived, as Gitea)', async () => {
    const label = await json(await create({ name: 'to-edit', color: '#111111', description: 'd', is_archived: true }));
    const res = await s.request(`api/v1/orgs/painters/labels/${label.id}`, {
      method: 'PATCH', auth: as(owner), json: { name: 'edited', color: '222' },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'Label');
    expect(body).toMatchObject({ id: label.id, name: 'edited', color: '222222', description: 'd', is_archived: false });
    const archived = await json(await s.request(`api/v1/orgs/painters/labels/${label.id}`, {
      method: 'PATCH', auth: as(owner), json: { is_archived: true, exclusive: true, description: '' },
    }));
    expect(archived).toMatchObject({ name: 'edited', is_archived: true, exclusive: true, description: '' });
  });

  it('refuses a bad color (422), non-owners (403), unknown ids (404)', async () => {
    const [bug] = await json(await s.request('api/v1/orgs/painters/labels'));
    expect((await s.request(`api/v1/orgs/painters/labels/${bug.id}`, { method: 'PATCH', auth: as(owner), json: { color: 'zzz' } })).status).toBe(422);
    expect((await s.request(`api/v1/orgs/painters/labels/${bug.id}`, { method: 'PATCH', auth: as(member), json: { name: 'x' } })).status).toBe(403);
    expect((await s.request('api/v1/orgs/painters/labels/99999', { method: 'PATCH', auth: as(owner), json: { name: 'x' } })).status).toBe(404);
  });
});

describe('DELETE /orgs/{org}/labels/{id}', () => {
  it('deletes (204); then 404', async () => {
    const label = await json(await create({ name: 'gone', color: '#999' }));
    expect((await s.request(`api/v1/orgs/painters/labels/${label.id}`, { method: 'DELETE', auth: as(member) })).status).toBe(403);
    expect((await s.request(`api/v1/orgs/painters/labels/${label.id}`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await s.request(`api/v1/orgs/painters/labels/${label.id}`, { auth: as(owner) })).status).toBe(404);
    expect((await s.request(`api/v1/orgs/painters/labels/${label.id}`, { method: 'DELETE', auth: as(owner) })).status).toBe(404);
  });
});

describe('labels of hidden organizations and tokens', () => {
  it('hides a private organization\'s labels from outsiders (404)', async () => {
    await createOrg(s, owner, 'secret-studio', { visibility: 'private' });
    expect((await create({ name: 'x', color: '#fff' }, owner, 'secret-studio')).status).toBe(201);
    expect((await s.request('api/v1/orgs/secret-studio/labels')).status).toBe(404);
    expect((await s.request('api/v1/orgs/secret-studio/labels', { auth: as(outsider) })).status).toBe(404);
    expect((await json(await s.request('api/v1/orgs/secret-studio/labels', { auth: as(owner) }))).length).toBe(1);
  });

  it('needs write:organization to create', async () => {
    const read = await createToken(s, owner, ['read:organization']);
    expect((await s.request('api/v1/orgs/painters/labels', { auth: { token: read } })).status).toBe(200);
    const res = await s.request('api/v1/orgs/painters/labels', { method: 'POST', auth: { token: read }, json: { name: 't', color: '#fff' } });
    expect(res.status).toBe(403);
  });
});
