import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Auth, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };
type ApiToken = {
  id: number; name: string; sha1: string; token_last_eight: string; scopes: string[];
  created_at: string; last_used_at: string;
};

let s: TestServer;
let alice: Creds;
let bob: Creds;


const create = (owner: string, auth: Auth, body: unknown) =>
  s.request(`api/v1/users/${owner}/tokens`, { method: 'POST', auth, json: body });
const list = async (owner: string, auth: Auth, query = ''): Promise<{ res: Response; tokens: ApiToken[] }> => {
  const res = await s.request(`api/v1/users/${owner}/tokens${query}`, { auth });
  expect(res.status).toBe(200);
  const tokens = await json(res);
  expectShape(tokens, '[AccessToken]');
  return { res, tokens };
};
const del = (owner: string, idOrName: string | number, auth: Auth) =>
  s.request(`api/v1/users/${owner}/tokens/${encodeURIComponent(String(idOrName))}`, { method: 'DELETE', auth });
const whoAmI = async (token: string): Promise<number> => (await s.request('api/v1/user', { auth: { token } })).status;

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

describe('POST /users/{username}/tokens', () => {
  it('creates a token shown once: 40 hex characters, last eight kept (201)', async () => {
    const res = await create('alice', as(alice), { name: 'ci', scopes: ['read:repository', 'write:user'] });
    expect(res.status).toBe(201);
    const body = (await json(res)) as ApiToken;
    expectShape(body, 'AccessToken');
    expectAllFields(body, 'AccessToken');
    expect(body.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(body.token_last_eight).toBe(body.sha1.slice(-8));
    expect(body.name).toBe('ci');
    expect(body.scopes).toEqual(['read:repository', 'write:user']);
    expect(body.id).toBeGreaterThan(0);
  });

  it('answers a token that authenticates as its owner in every form', async () => {
    const token = await createToken(s, alice, ['read:user']);
    for (const form of ['header', 'bearer', 'query', 'access_token'] as const) {
      const res = await s.request('api/v1/user', { auth: { token, as: form } });
      expect(res.status, form).toBe(200);
      expect((await json(res)).login).toBe('alice');
    }
  });

  it('makes a new random token each time', async () => {
    const a = await createToken(s, alice, ['read:user']);
    const b = await createToken(s, alice, ['read:user']);
    expect(a).not.toBe(b);
  });

  it('normalizes scopes: comma lists are split, write implies read, all swallows the rest', async () => {
    const split = await json(await create('alice', as(alice), { name: 'norm-1', scopes: ['read:issue,write:issue', 'read:user'] }));
    expect(split.scopes).toEqual(['write:issue', 'read:user']);
    const all = await json(await create('alice', as(alice), { name: 'norm-2', scopes: ['all', 'read:user'] }));
    expect(all.scopes).toEqual(['all']);
    const pub = await json(await create('alice', as(alice), { name: 'norm-3', scopes: ['public-only', 'read:user'] }));
    expect(pub.scopes).toEqual(['read:user', 'public-only']);
  });

  it('refuses a token without a scope (400)', async () => {
    for (const scopes of [[], ['']]) {
      const res = await create('alice', as(alice), { name: `noscope-${scopes.length}-${scopes[0] ?? ''}`, scopes });
      expect(res.status, JSON.stringify(scopes)).toBe(400);
      expect((await json(res)).message).toBe('access token must have a scope');
    }
    const absent = await create('alice', as(alice), { name: 'noscope-absent' });
    expect(absent.status).toBe(400);
  });

  it('refuses an unknown scope (400)', async () => {
    for (const scope of ['read:everything', 'delete:user', 'admin', 'read:user:extra']) {
      const res = await create('alice', as(alice), { name: 'bad-scope', scopes: [scope] });
      expect(res.status, scope).toBe(400);
      expect((await json(res)).message).toContain('invalid access token scope');
    }
  });

  it('refuses a name already used by the same user (400) but not by another user', async () => {
    expect((await create('alice', as(alice), { name: 'dup', scopes: ['all'] })).status).toBe(201);
    const again = await create('alice', as(alice), { name: 'dup', scopes: ['all'] });
    expect(again.status).toBe(400);
    expect((await json(again)).message).toBe('access token name has been used already');
    expect((await create('bob', as(bob), { name: 'dup', scopes: ['all'] })).status).toBe(201);
  });

  it('refuses a missing name (422)', async () => {
    const res = await create('alice', as(alice), { scopes: ['all'] });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('name');
  });

  it('regression: an empty name is a validation error (422), as Gitea binding:"Required"', async () => {
    const res = await create('alice', as(alice), { name: '', scopes: ['all'] });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('name');
  });

  it('needs Basic credentials: a token may not mint tokens (401)', async () => {
    const token = await createToken(s, alice, ['all']);
    const res = await create('alice', { token }, { name: 'from-token', scopes: ['all'] });
    expect(res.status).toBe(401);
    expect((await s.request('api/v1/users/alice/tokens', { method: 'POST', json: { name: 'anon', scopes: ['all'] } })).status).toBe(401);
  });

  it('refuses wrong Basic credentials (401)', async () => {
    const res = await create('alice', { basic: ['alice', 'wrong-password'] }, { name: 'x', scopes: ['all'] });
    expect(res.status).toBe(401);
  });

  it('refuses to create a token for another user (403)', async () => {
    const res = await create('alice', as(bob), { name: 'steal', scopes: ['all'] });
    expect(res.status).toBe(403);
    expect((await list('alice', as(alice))).tokens.map((t) => t.name)).not.toContain('steal');
  });

  it('lets a site admin create a token for another user', async () => {
    const res = await create('bob', as(s.admin), { name: 'by-admin', scopes: ['read:user'] });
    expect(res.status).toBe(201);
    const { sha1 } = await json(res);
    const me = await s.request('api/v1/user', { auth: { token: sha1 } });
    expect((await json(me)).login).toBe('bob');
  });

  it('is 404 for an unknown user', async () => {
    expect((await create('nobody', as(s.admin), { name: 'x', scopes: ['all'] })).status).toBe(404);
    expect((await create('nobody', as(alice), { name: 'x', scopes: ['all'] })).status).toBe(404);
  });

  it('stores the token hashed, never the plain value', async () => {
    const res = await create('alice', as(alice), { name: 'hashed', scopes: ['read:user'] });
    const { sha1, id } = await json(res);
    const rows = await s.hearth.db.selectFrom('access_token').selectAll().execute();
    const row = rows.find((r) => r.id === id)!;
    expect(row).toBeDefined();
    expect(row.token_last_eight).toBe(sha1.slice(-8));
    expect(row.token_hash).not.toBe(sha1);
    for (const r of rows) {
      for (const value of Object.values(r)) expect(String(value)).not.toContain(sha1);
    }
  });
});

describe('GET /users/{username}/tokens', () => {
  let carol: Creds;
  beforeAll(async () => { carol = await createUser(s, 'carol'); });

  it('lists the tokens without their values', async () => {
    const made = await json(await create('carol', as(carol), { name: 'one', scopes: ['read:user'] }));
    await create('carol', as(carol), { name: 'two', scopes: ['write:issue'] });
    const { tokens, res } = await list('carol', as(carol));
    expect(tokens.map((t) => t.name).sort()).toEqual(['one', 'two']);
    for (const t of tokens) {
      expectAllFields(t as unknown as Record<string, unknown>, 'AccessToken');
      expect(t.sha1).toBe('');
      expect(t.token_last_eight).toMatch(/^[0-9a-f]{8}$/);
    }
    const one = tokens.find((t) => t.name === 'one')!;
    expect(one).toMatchObject({ id: made.id, token_last_eight: made.token_last_eight, scopes: ['read:user'] });
    expect(JSON.stringify(tokens)).not.toContain(made.sha1);
    expect(res.headers.get('x-total-count')).toBe('2');
  });

  it('pages with limit=', async () => {
    const { tokens, res } = await list('carol', as(carol), '?limit=1');
    expect(tokens).toHaveLength(1);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    const second = await list('carol', as(carol), '?limit=1&page=2');
    expect(second.tokens).toHaveLength(1);
    expect(second.tokens[0]!.id).not.toBe(tokens[0]!.id);
  });

  it('records when a token was last used', async () => {
    const res = await create('carol', as(carol), { name: 'used', scopes: ['read:user'] });
    const made = await json(res);
    expect(await whoAmI(made.sha1)).toBe(200);
    const listed = (await list('carol', as(carol))).tokens.find((t) => t.name === 'used')!;
    expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(Date.parse(listed.created_at));
  });

  it('is empty for a user without tokens', async () => {
    const dave = await createUser(s, 'dave');
    const { tokens, res } = await list('dave', as(dave));
    expect(tokens).toEqual([]);
    expect(res.headers.get('x-total-count')).toBe('0');
  });

  it('refuses another user (403) and anonymous callers (401)', async () => {
    const res = await s.request('api/v1/users/carol/tokens', { auth: as(bob) });
    expect(res.status).toBe(403);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
    expect((await s.request('api/v1/users/carol/tokens')).status).toBe(401);
  });

  it('lets a site admin list another user\'s tokens', async () => {
    const { tokens } = await list('carol', as(s.admin));
    expect(tokens.map((t) => t.name)).toEqual(expect.arrayContaining(['one', 'two']));
  });

  it('matches the user name case-insensitively', async () => {
    const { tokens } = await list('CAROL', as(carol));
    expect(tokens.map((t) => t.name)).toEqual(expect.arrayContaining(['one', 'two']));
  });
});

describe('DELETE /users/{username}/tokens/{token}', () => {
  it('deletes by id (204) and the token stops working (401)', async () => {
    const made = await json(await create('alice', as(alice), { name: 'del-by-id', scopes: ['read:user'] }));
    expect(await whoAmI(made.sha1)).toBe(200);
    const res = await del('alice', made.id, as(alice));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await whoAmI(made.sha1)).toBe(401);
    expect((await list('alice', as(alice))).tokens.map((t) => t.id)).not.toContain(made.id);
  });

  it('deletes by name (204) and the token stops working (401)', async () => {
    const made = await json(await create('alice', as(alice), { name: 'del by name', scopes: ['read:user'] }));
    expect((await del('alice', 'del by name', as(alice))).status).toBe(204);
    expect(await whoAmI(made.sha1)).toBe(401);
    const rows = await s.hearth.db.selectFrom('access_token').select('id').where('id', '=', made.id).execute();
    expect(rows).toEqual([]);
  });

  it('is 404 for a missing id or name', async () => {
    const byId = await del('alice', 999999, as(alice));
    expect(byId.status).toBe(404);
    expect(Object.keys(await json(byId)).sort()).toEqual(['message', 'url']);
    expect((await del('alice', 'no-such-token', as(alice))).status).toBe(404);
  });

  it('is 404 for a token id that belongs to another user, which keeps working', async () => {
    const bobs = await json(await create('bob', as(bob), { name: 'bobs', scopes: ['read:user'] }));
    expect((await del('alice', bobs.id, as(alice))).status).toBe(404);
    expect((await del('alice', 'bobs', as(alice))).status).toBe(404);
    expect(await whoAmI(bobs.sha1)).toBe(200);
  });

  it('refuses to delete another user\'s token (403)', async () => {
    const bobs = await json(await create('bob', as(bob), { name: 'bobs-2', scopes: ['read:user'] }));
    expect((await del('bob', bobs.id, as(alice))).status).toBe(403);
    expect(await whoAmI(bobs.sha1)).toBe(200);
  });

  it('lets a site admin delete another user\'s token', async () => {
    const bobs = await json(await create('bob', as(bob), { name: 'bobs-3', scopes: ['read:user'] }));
    expect((await del('bob', 'bobs-3', as(s.admin))).status).toBe(204);
    expect(await whoAmI(bobs.sha1)).toBe(401);
  });

  it('needs Basic credentials: a token may not revoke tokens (401)', async () => {
    const made = await json(await create('alice', as(alice), { name: 'keep-me', scopes: ['all'] }));
    expect((await del('alice', made.id, { token: made.sha1 })).status).toBe(401);
    expect((await del('alice', made.id, undefined)).status).toBe(401);
    expect(await whoAmI(made.sha1)).toBe(200);
  });

  it('is 404 for an unknown user', async () => {
    expect((await del('nobody', 1, as(s.admin))).status).toBe(404);
  });
});
