import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Token scopes: GET needs read:X, other methods write:X; write implies read; `all` is everything;
// `public-only` hides non-public users. Password (Basic) callers are never scope-limited.

type Creds = { username: string; password: string };

let s: TestServer;
let admin: Creds;
let alice: Creds;

const as = (token: string) => ({ auth: { token } as const });

const getUser = (token: string) => s.request('api/v1/user', as(token));
const patchSettings = (token: string, body: Record<string, unknown> = { location: 'Somewhere' }) =>
  s.request('api/v1/user/settings', { method: 'PATCH', ...as(token), json: body });

let seq = 0;
const newUserBody = () => {
  seq += 1;
  return { username: `scoped${seq}`, email: `scoped${seq}@example.com`, password: 'long-enough-pw', must_change_password: false };
};

async function expectScopeRefusal(res: Response, required: string, tokenScope: string): Promise<void> {
  expect(res.status).toBe(403);
  const body = await json(res);
  expectShape(body, 'APIError');
  expect(body.message).toBe(
    `token does not have at least one of required scope(s), required=[${required}], token scope=${tokenScope}`,
  );
}

/** POST /users/{u}/tokens with Basic auth; the raw response. */
const postToken = (user: Creds, body: unknown) =>
  s.request(`api/v1/users/${user.username}/tokens`, { method: 'POST', auth: { basic: [user.username, user.password] }, json: body });

beforeAll(async () => {
  s = await startTestServer();
  admin = s.admin;
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

describe('user scope', () => {
  it('read:user may GET /user and /user/settings but not PATCH /user/settings', async () => {
    const token = await createToken(s, alice, ['read:user']);
    const me = await getUser(token);
    expect(me.status).toBe(200);
    expectShape(await json(me), 'User');
    const settings = await s.request('api/v1/user/settings', as(token));
    expect(settings.status).toBe(200);
    expectShape(await json(settings), 'UserSettings');
    await expectScopeRefusal(await patchSettings(token), 'write:user', 'read:user');
  });

  it('a refused write changes nothing', async () => {
    const token = await createToken(s, alice, ['read:user']);
    expect((await patchSettings(token, { location: 'Refused' })).status).toBe(403);
    const settings = await json(await s.request('api/v1/user/settings', as(token)));
    expect(settings.location).not.toBe('Refused');
  });

  it('write:user may both read and write', async () => {
    const token = await createToken(s, alice, ['write:user']);
    expect((await getUser(token)).status).toBe(200);
    const res = await patchSettings(token, { location: 'Lisbon' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'UserSettings');
    expect(body.location).toBe('Lisbon');
  });

  it('a token with only read:repository may not GET /user', async () => {
    const token = await createToken(s, alice, ['read:repository']);
    await expectScopeRefusal(await getUser(token), 'read:user', 'read:repository');
  });

  it('a token with only write:admin may not GET /user', async () => {
    const token = await createToken(s, admin, ['write:admin']);
    await expectScopeRefusal(await getUser(token), 'read:user', 'write:admin');
  });

  it('password callers are not limited by scopes', async () => {
    const res = await s.request('api/v1/user/settings', {
      method: 'PATCH', auth: { basic: [alice.username, alice.password] }, json: { location: 'Porto' },
    });
    expect(res.status).toBe(200);
  });

  it('the scope is checked on /users/{username} and /users/search as well', async () => {
    const token = await createToken(s, alice, ['read:issue']);
    await expectScopeRefusal(await s.request('api/v1/users/alice', as(token)), 'read:user', 'read:issue');
    await expectScopeRefusal(await s.request('api/v1/users/search', as(token)), 'read:user', 'read:issue');
  });
});

describe('admin scope', () => {
  it('`all` may do everything, admin endpoints included', async () => {
    const token = await createToken(s, admin, ['all']);
    expect((await getUser(token)).status).toBe(200);
    expect((await patchSettings(token, { location: 'Everywhere' })).status).toBe(200);
    const list = await s.request('api/v1/admin/users', as(token));
    expect(list.status).toBe(200);
    expectShape(await json(list), '[User]');
    const created = await s.request('api/v1/admin/users', { method: 'POST', ...as(token), json: newUserBody() });
    expect(created.status).toBe(201);
    expectShape(await json(created), 'User');
    expect((await s.request('api/v1/admin/emails', as(token))).status).toBe(200);
  });

  it('read:admin may list users but not create one', async () => {
    const token = await createToken(s, admin, ['read:admin']);
    expect((await s.request('api/v1/admin/users', as(token))).status).toBe(200);
    const before = Number((await s.request('api/v1/admin/users', as(token))).headers.get('x-total-count'));
    const res = await s.request('api/v1/admin/users', { method: 'POST', ...as(token), json: newUserBody() });
    await expectScopeRefusal(res, 'write:admin', 'read:admin');
    const after = Number((await s.request('api/v1/admin/users', as(token))).headers.get('x-total-count'));
    expect(after).toBe(before);
  });

  it('read:admin may not PATCH or DELETE a user', async () => {
    const token = await createToken(s, admin, ['read:admin']);
    const edit = await s.request('api/v1/admin/users/alice', { method: 'PATCH', ...as(token), json: { full_name: 'X' } });
    await expectScopeRefusal(edit, 'write:admin', 'read:admin');
    const del = await s.request('api/v1/admin/users/alice', { method: 'DELETE', ...as(token) });
    await expectScopeRefusal(del, 'write:admin', 'read:admin');
  });

  it('write:admin implies read:admin', async () => {
    const token = await createToken(s, admin, ['write:admin']);
    expect((await s.request('api/v1/admin/users', as(token))).status).toBe(200);
    const res = await s.request('api/v1/admin/users', { method: 'POST', ...as(token), json: newUserBody() });
    expect(res.status).toBe(201);
  });

  it('read:user is not enough for admin endpoints', async () => {
    const token = await createToken(s, admin, ['read:user']);
    await expectScopeRefusal(await s.request('api/v1/admin/users', as(token)), 'read:admin', 'read:user');
  });

  it('an `all` token of a non-admin still may not use admin endpoints', async () => {
    const token = await createToken(s, alice, ['all']);
    const res = await s.request('api/v1/admin/users', as(token));
    expect(res.status).toBe(403);
    expectShape(await json(res), 'APIError');
  });
});

describe('public-only', () => {
  let hidden: Creds;
  beforeAll(async () => {
    hidden = await createUser(s, 'hidden', { visibility: 'private' });
  });

  it('a public-only token may not read a private user, even as an admin', async () => {
    const token = await createToken(s, admin, ['read:user', 'public-only']);
    const res = await s.request('api/v1/users/hidden', as(token));
    expect(res.status).toBe(403);
    const body = await json(res);
    expectShape(body, 'APIError');
    expect(body.message).toBe('token scope is limited to public users');
  });

  it('a public-only token may read a public user', async () => {
    const token = await createToken(s, admin, ['read:user', 'public-only']);
    const res = await s.request('api/v1/users/alice', as(token));
    expect(res.status).toBe(200);
    expectShape(await json(res), 'User');
  });

  it('the same token without public-only reads the private user', async () => {
    const token = await createToken(s, admin, ['read:user']);
    expect((await s.request('api/v1/users/hidden', as(token))).status).toBe(200);
  });

  it('a public-only token does not see the private user in a search', async () => {
    const restricted = await createToken(s, admin, ['read:user', 'public-only']);
    const full = await createToken(s, admin, ['read:user']);
    const logins = async (token: string) => {
      const res = await s.request('api/v1/users/search?q=hidden', as(token));
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.ok).toBe(true);
      expectShape(body.data, '[User]');
      return (body.data as { login: string }[]).map((u) => u.login);
    };
    expect(await logins(full)).toContain('hidden');
    expect(await logins(restricted)).not.toContain('hidden');
  });

  it('a private user with a public-only token does not find itself in a search', async () => {
    const token = await createToken(s, hidden, ['read:user', 'public-only']);
    const body = await json(await s.request('api/v1/users/search?q=hidden', as(token)));
    expect((body.data as { login: string }[]).map((u) => u.login)).not.toContain('hidden');
  });

  it('an anonymous caller gets 404 for the private user', async () => {
    expect((await s.request('api/v1/users/hidden')).status).toBe(404);
  });

  it('public-only does not limit the admin list', async () => {
    const token = await createToken(s, admin, ['read:admin', 'public-only']);
    expect((await s.request('api/v1/admin/users', as(token))).status).toBe(200);
  });
});

describe('creating tokens', () => {
  it('the scopes are normalised: write swallows read, a comma-joined entry is split', async () => {
    const res = await postToken(alice, { name: 'normalised', scopes: ['read:user,write:user', 'read:issue'] });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'AccessToken');
    expect([...body.scopes].sort()).toEqual(['read:issue', 'write:user']);
  });

  it('`all` swallows per-category scopes', async () => {
    const res = await postToken(alice, { name: 'everything', scopes: ['all', 'read:user'] });
    expect(res.status).toBe(201);
    expect((await json(res)).scopes).toEqual(['all']);
  });

  it('the listing shows the scopes but never the token', async () => {
    const res = await s.request('api/v1/users/alice/tokens', { auth: { basic: [alice.username, alice.password] } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[AccessToken]');
    const t = (body as { name: string; sha1: string; scopes: string[] }[]).find((x) => x.name === 'everything');
    expect(t?.scopes).toEqual(['all']);
    expect(t?.sha1).toBe('');
  });

  it.each([
    ['an empty list', { name: 'none-1', scopes: [] }],
    ['no scopes field', { name: 'none-2' }],
    ['only blank entries', { name: 'none-3', scopes: ['', ' '] }],
  ])('refuses a token with no scope (%s) with 400', async (_case, body) => {
    const res = await postToken(alice, body);
    expect(res.status).toBe(400);
    const err = await json(res);
    expectShape(err, 'APIError');
    expect(err.message).toBe('access token must have a scope');
  });

  it.each([
    ['an unknown category', 'read:nothing'],
    ['an unknown level', 'delete:user'],
    ['a bare category', 'user'],
    ['an extra part', 'read:user:all'],
  ])('refuses an invalid scope (%s) with 400', async (_case, scope) => {
    const res = await postToken(alice, { name: `bad-${scope}`, scopes: ['read:user', scope] });
    expect(res.status).toBe(400);
    const err = await json(res);
    expectShape(err, 'APIError');
    expect(err.message).toContain(scope);
  });

  it('refuses a duplicate token name with 400 and keeps one token of that name', async () => {
    expect((await postToken(alice, { name: 'twice', scopes: ['read:user'] })).status).toBe(201);
    const again = await postToken(alice, { name: 'twice', scopes: ['write:user'] });
    expect(again.status).toBe(400);
    const err = await json(again);
    expectShape(err, 'APIError');
    expect(err.message).toBe('access token name has been used already');
    const list = await json(await s.request('api/v1/users/alice/tokens', { auth: { basic: [alice.username, alice.password] } }));
    expect((list as { name: string }[]).filter((t) => t.name === 'twice')).toHaveLength(1);
  });

  it('the same token name may be used by two users', async () => {
    expect((await postToken(admin, { name: 'shared-name', scopes: ['read:user'] })).status).toBe(201);
    expect((await postToken(alice, { name: 'shared-name', scopes: ['read:user'] })).status).toBe(201);
  });

  it('a scope list of the wrong type is a 422 naming the field', async () => {
    const res = await postToken(alice, { name: 'typed', scopes: 'read:user' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('scopes');
  });
});
