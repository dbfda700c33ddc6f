import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createToken, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;

const BASE = 'api/v1/user/applications/oauth2';
const create = (auth: ReturnType<typeof as>, body: unknown) => s.request(BASE, { method: 'POST', auth, json: body });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

describe('OAuth2 applications', () => {
  let app: { id: number; client_id: string; client_secret: string };

  it('creates an application: 201 with a uuid client id and the secret, shown this once', async () => {
    const body = await ok(await create(as(alice), {
      name: 'ci bot', redirect_uris: ['https://ci.example.com/callback'], confidential_client: true,
    }), 201);
    expectShape(body, 'OAuth2Application');
    expectAllFields(body, 'OAuth2Application');
    expect(body.client_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.client_secret).toMatch(/^gto_[a-z2-7]{52}$/);
    expect(body).toMatchObject({
      name: 'ci bot', redirect_uris: ['https://ci.example.com/callback'], confidential_client: true, skip_secondary_authorization: false,
    });
    expect(Date.parse(body.created)).toBeGreaterThan(0);
    app = body;
  });

  it('never shows the secret again: not in the listing, not in a get', async () => {
    const res = await s.request(BASE, { auth: as(alice) });
    const list = await ok(res);
    expectShape(list, '[OAuth2Application]');
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(list.map((a: { id: number }) => a.id)).toEqual([app.id]);
    expect(list[0].client_secret).toBe('');
    const one = await ok(await s.request(`${BASE}/${app.id}`, { auth: as(alice) }));
    expectShape(one, 'OAuth2Application');
    expect(one.client_secret).toBe('');
    expect(one.client_id).toBe(app.client_id);
    // Nor is it stored in clear.
    const stored = await s.hearth.db.selectFrom('oauth2_application').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(app.client_secret.slice(4));
  });

  it('PATCH replaces the settings and regenerates the secret, as Gitea', async () => {
    const body = await ok(await s.request(`${BASE}/${app.id}`, {
      method: 'PATCH', auth: as(alice),
      json: { name: 'renamed', redirect_uris: ['https://a.example/cb', 'http://127.0.0.1/cb'], skip_secondary_authorization: true },
    }));
    expectShape(body, 'OAuth2Application');
    expect(body).toMatchObject({
      id: app.id, client_id: app.client_id, name: 'renamed', confidential_client: false, skip_secondary_authorization: true,
      redirect_uris: ['https://a.example/cb', 'http://127.0.0.1/cb'],
    });
    expect(body.client_secret).toMatch(/^gto_/);
    expect(body.client_secret).not.toBe(app.client_secret);
  });

  it('keeps users apart: another user\'s application is 404', async () => {
    expect((await s.request(`${BASE}/${app.id}`, { auth: as(bob) })).status).toBe(404);
    expect((await s.request(`${BASE}/${app.id}`, { method: 'PATCH', auth: as(bob), json: { name: 'x', redirect_uris: ['https://x/'] } })).status).toBe(404);
    expect((await s.request(`${BASE}/${app.id}`, { method: 'DELETE', auth: as(bob) })).status).toBe(404);
    expect(await ok(await s.request(BASE, { auth: as(bob) }))).toEqual([]);
  });

  it('validates name and redirect URIs (422)', async () => {
    expect((await create(as(alice), { redirect_uris: ['https://x.example/'] })).status).toBe(422);
    expect((await create(as(alice), { name: 'no uris' })).status).toBe(422);
    const bad = await create(as(alice), { name: 'bad', redirect_uris: ['not a url'] });
    expect(bad.status).toBe(422);
    expect((await json(bad)).message).toContain('not a url');
  });

  it('pages the listing', async () => {
    for (const n of [2, 3]) await ok(await create(as(alice), { name: `app ${n}`, redirect_uris: ['https://x.example/'] }), 201);
    const res = await s.request(`${BASE}?limit=2&page=2`, { auth: as(alice) });
    const page = await ok(res);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(page.map((a: { name: string }) => a.name)).toEqual(['app 3']);
  });

  it('deletes: 204, then 404', async () => {
    await ok(await s.request(`${BASE}/${app.id}`, { method: 'DELETE', auth: as(alice) }), 204);
    expect((await s.request(`${BASE}/${app.id}`, { auth: as(alice) })).status).toBe(404);
    expect((await s.request(`${BASE}/${app.id}`, { method: 'DELETE', auth: as(alice) })).status).toBe(404);
  });

  it('needs a user-scoped token', async () => {
    expect((await s.request(BASE)).status).toBe(401);
    const readRepo = await createToken(s, alice, ['read:repository']);
    expect((await s.request(BASE, { auth: { token: readRepo } })).status).toBe(403);
    const writeUser = await createToken(s, alice, ['write:user']);
    await ok(await create({ token: writeUser }, { name: 'by token', redirect_uris: ['https://x.example/'] }), 201);
  });
});
