import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicHeader, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Every way Gitea accepts credentials on the API, and the ways it refuses them.

type Creds = { username: string; password: string };

let s: TestServer;
let admin: Creds;
let alice: Creds & { id: number };
let aliceToken: string;
let adminToken: string;

const INVALID = 'invalid username, password or token';

/** GET /user with raw headers and an optional query string. */
const whoAmI = (headers: Record<string, string> = {}, query = '') =>
  s.request(`api/v1/user${query}`, { headers });

async function expectLogin(res: Response, login: string): Promise<void> {
  expect(res.status).toBe(200);
  const body = await json(res);
  expectShape(body, 'User');
  expect(body.login).toBe(login);
}

async function expectInvalidCredentials(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  const body = await json(res);
  expectShape(body, 'APIError');
  expect(body).toEqual({ message: INVALID, url: `${s.hearth.config.server.root_url}api/swagger` });
}

const adminPatch = (name: string, body: Record<string, unknown>) =>
  s.request(`api/v1/admin/users/${name}`, { method: 'PATCH', auth: { basic: [admin.username, admin.password] }, json: body });

beforeAll(async () => {
  s = await startTestServer();
  admin = s.admin;
  // A password with colons: Basic splits on the first colon only.
  const password = 'pa:ss:wo:rd-42';
  const created = await createUser(s, 'alice', { password });
  alice = { ...created, password };
  aliceToken = await createToken(s, alice, ['read:user']);
  adminToken = await createToken(s, admin, ['all']);
});
afterAll(async () => { await s.stop(); });

describe('Basic authentication', () => {
  it('accepts a password containing colons', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(alice.username, alice.password) }), 'alice');
  });

  it('accepts the email address in place of the user name', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader('alice@example.com', alice.password) }), 'alice');
  });

  it('accepts the user name in any case', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader('ALICE', alice.password) }), 'alice');
  });

  it('accepts a token as the password', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(alice.username, aliceToken) }), 'alice');
  });

  it('accepts a token as the user name with an empty password', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(aliceToken, '') }), 'alice');
    // No colon at all is the same as an empty password.
    await expectLogin(await whoAmI({ Authorization: `Basic ${Buffer.from(aliceToken).toString('base64')}` }), 'alice');
  });

  it('accepts a token as the user name with the password x-oauth-basic', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(aliceToken, 'x-oauth-basic') }), 'alice');
  });

  it('accepts the scheme in any case', async () => {
    const encoded = Buffer.from(`${alice.username}:${alice.password}`).toString('base64');
    await expectLogin(await whoAmI({ Authorization: `basic ${encoded}` }), 'alice');
    await expectLogin(await whoAmI({ Authorization: `BASIC ${encoded}` }), 'alice');
  });

  it('refuses a wrong password with 401', async () => {
    await expectInvalidCredentials(await whoAmI({ Authorization: basicHeader(alice.username, 'pa:ss:wo:rd-43') }));
  });

  it('refuses a password cut at its first colon', async () => {
    await expectInvalidCredentials(await whoAmI({ Authorization: basicHeader(alice.username, 'pa') }));
  });

  it('refuses an unknown user with 401', async () => {
    await expectInvalidCredentials(await whoAmI({ Authorization: basicHeader('nobody', 'whatever-password') }));
  });

  it('refuses an unknown token as the user name with 401', async () => {
    await expectInvalidCredentials(await whoAmI({ Authorization: basicHeader('0'.repeat(40), '') }));
  });
});

describe('token authentication', () => {
  it.each([
    ['token', (t: string) => ({ Authorization: `token ${t}` })],
    ['Bearer', (t: string) => ({ Authorization: `Bearer ${t}` })],
    ['TOKEN', (t: string) => ({ Authorization: `TOKEN ${t}` })],
    ['bearer', (t: string) => ({ Authorization: `bearer ${t}` })],
    ['Token', (t: string) => ({ Authorization: `Token ${t}` })],
  ])('accepts `Authorization: %s X`', async (_scheme, header) => {
    await expectLogin(await whoAmI(header(aliceToken)), 'alice');
  });

  it('accepts ?token=', async () => {
    await expectLogin(await s.request('api/v1/user', { auth: { token: aliceToken, as: 'query' } }), 'alice');
  });

  it('accepts ?access_token=', async () => {
    await expectLogin(await s.request('api/v1/user', { auth: { token: aliceToken, as: 'access_token' } }), 'alice');
  });

  it('the harness forms agree with the raw ones', async () => {
    await expectLogin(await s.request('api/v1/user', { auth: { token: aliceToken } }), 'alice');
    await expectLogin(await s.request('api/v1/user', { auth: { token: aliceToken, as: 'bearer' } }), 'alice');
  });

  it('refuses an unknown token in the header with 401', async () => {
    await expectInvalidCredentials(await whoAmI({ Authorization: `token ${'f'.repeat(40)}` }));
    await expectInvalidCredentials(await whoAmI({ Authorization: `Bearer ${'f'.repeat(40)}` }));
  });

  it('refuses an unknown ?token= with 401 and a Basic challenge', async () => {
    const res = await whoAmI({}, `?token=${'a'.repeat(40)}`);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"$/);
    await expectInvalidCredentials(res);
  });

  it('refuses an unknown ?access_token= with 401 and a Basic challenge', async () => {
    const res = await whoAmI({}, `?access_token=${'b'.repeat(40)}`);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"$/);
    await expectInvalidCredentials(res);
  });

  it('a token stops working once deleted', async () => {
    const name = 'short-lived';
    const token = await createToken(s, alice, ['read:user'], name);
    await expectLogin(await whoAmI({ Authorization: `token ${token}` }), 'alice');
    const del = await s.request(`api/v1/users/alice/tokens/${name}`, {
      method: 'DELETE', auth: { basic: [alice.username, alice.password] },
    });
    expect(del.status).toBe(204);
    await expectInvalidCredentials(await whoAmI({ Authorization: `token ${token}` }));
  });
});

describe('anonymous callers', () => {
  it('GET /user without credentials is 401 with a Basic challenge', async () => {
    const res = await whoAmI();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"$/);
    const body = await json(res);
    expectShape(body, 'APIError');
    expect(Object.keys(body).sort()).toEqual(['message', 'url']);
  });

  it('public endpoints still answer without credentials', async () => {
    expect((await s.request('api/v1/version')).status).toBe(200);
    expect((await s.request('api/v1/users/alice')).status).toBe(200);
  });
});

describe('inactive and login-prohibited users', () => {
  it('an inactive user gets 403 with a password or a token, and is let back in once reactivated', async () => {
    const bob = await createUser(s, 'bob');
    const token = await createToken(s, bob, ['read:user']);
    const edit = await adminPatch('bob', { active: false });
    expect(edit.status).toBe(200);
    expect((await json(edit)).active).toBe(false);

    for (const res of [
      await whoAmI({ Authorization: basicHeader(bob.username, bob.password) }),
      await whoAmI({ Authorization: `token ${token}` }),
      await whoAmI({}, `?token=${token}`),
    ]) {
      expect(res.status).toBe(403);
      const body = await json(res);
      expectShape(body, 'APIError');
      expect(body.message).toMatch(/prohibited|not activated/);
    }

    expect((await adminPatch('bob', { active: true })).status).toBe(200);
    await expectLogin(await whoAmI({ Authorization: `token ${token}` }), 'bob');
  });

  it('a login-prohibited user gets 403 with a password or a token', async () => {
    const carl = await createUser(s, 'carl');
    const token = await createToken(s, carl, ['read:user']);
    const edit = await adminPatch('carl', { prohibit_login: true });
    expect(edit.status).toBe(200);
    expect((await json(edit)).prohibit_login).toBe(true);

    for (const res of [
      await whoAmI({ Authorization: basicHeader(carl.username, carl.password) }),
      await whoAmI({ Authorization: `Bearer ${token}` }),
    ]) {
      expect(res.status).toBe(403);
      expect((await json(res)).message).toMatch(/prohibited/);
    }
    // Nor can it mint a token for itself.
    const mint = await s.request('api/v1/users/carl/tokens', {
      method: 'POST', auth: { basic: [carl.username, carl.password] }, json: { name: 'x', scopes: ['all'] },
    });
    expect(mint.status).toBe(403);
  });

  it('a wrong password for an inactive user is still 401, not 403', async () => {
    await createUser(s, 'dora');
    expect((await adminPatch('dora', { active: false })).status).toBe(200);
    await expectInvalidCredentials(await whoAmI({ Authorization: basicHeader('dora', 'not-the-password') }));
  });
});

describe('sudo', () => {
  it('an admin with a Sudo header acts as that user', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(admin.username, admin.password), Sudo: 'alice' }), 'alice');
  });

  it('an admin with ?sudo= acts as that user', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(admin.username, admin.password) }, '?sudo=alice'), 'alice');
  });

  it('an admin token may sudo too', async () => {
    await expectLogin(await whoAmI({ Authorization: `token ${adminToken}`, Sudo: 'alice' }), 'alice');
    await expectLogin(await whoAmI({}, `?token=${adminToken}&sudo=alice`), 'alice');
  });

  it('the sudo target is looked up case-insensitively', async () => {
    await expectLogin(await whoAmI({ Authorization: basicHeader(admin.username, admin.password), Sudo: 'ALICE' }), 'alice');
  });

  it('acting as a non-admin loses admin rights', async () => {
    const res = await s.request('api/v1/admin/users', {
      auth: { basic: [admin.username, admin.password] }, headers: { Sudo: 'alice' },
    });
    expect(res.status).toBe(403);
  });

  it('a non-admin sending Sudo gets 403', async () => {
    const res = await whoAmI({ Authorization: basicHeader(alice.username, alice.password), Sudo: admin.username });
    expect(res.status).toBe(403);
    const body = await json(res);
    expectShape(body, 'APIError');
    expect(body.message).toBe('Only administrators allowed to sudo.');
    const byQuery = await whoAmI({ Authorization: `token ${aliceToken}` }, `?sudo=${admin.username}`);
    expect(byQuery.status).toBe(403);
  });

  it('an anonymous caller sending Sudo gets 403', async () => {
    expect((await whoAmI({ Sudo: 'alice' })).status).toBe(403);
  });

  it('an unknown sudo target is 404', async () => {
    const res = await whoAmI({ Authorization: basicHeader(admin.username, admin.password), Sudo: 'no-such-user' });
    expect(res.status).toBe(404);
    expectShape(await json(res), 'APIError');
    const byQuery = await whoAmI({ Authorization: basicHeader(admin.username, admin.password) }, '?sudo=no-such-user');
    expect(byQuery.status).toBe(404);
  });
});

describe('token endpoints need Basic authentication with the password', () => {
  it('lists tokens with Basic auth', async () => {
    const res = await s.request('api/v1/users/alice/tokens', { auth: { basic: [alice.username, alice.password] } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[AccessToken]');
    expect(body.length).toBeGreaterThan(0);
    for (const t of body) expect(t.sha1).toBe('');
  });

  it('creates a token with Basic auth: 40 hex characters shown once', async () => {
    const res = await s.request('api/v1/users/alice/tokens', {
      method: 'POST', auth: { basic: [alice.username, alice.password] }, json: { name: 'via-basic', scopes: ['read:user'] },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'AccessToken');
    expect(body.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(body.token_last_eight).toBe(body.sha1.slice(-8));
    expect(body.name).toBe('via-basic');
    expect(body.scopes).toEqual(['read:user']);
  });

  it.each([
    ['Authorization: token', { Authorization: () => `token ${adminToken}` }],
    ['Authorization: Bearer', { Authorization: () => `Bearer ${adminToken}` }],
    ['a token as the Basic password', { Authorization: () => basicHeader(admin.username, adminToken) }],
    ['a token as the Basic user name', { Authorization: () => basicHeader(adminToken, '') }],
  ])('refuses %s with 401 even for an `all` token', async (_form, h) => {
    const headers = { Authorization: h.Authorization() };
    for (const [method, path, body] of [
      ['GET', `api/v1/users/${admin.username}/tokens`, undefined],
      ['POST', `api/v1/users/${admin.username}/tokens`, { name: 'minted-by-token', scopes: ['all'] }],
      ['DELETE', `api/v1/users/${admin.username}/tokens/1`, undefined],
    ] as const) {
      const res = await s.request(path, { method, headers, json: body });
      expect(res.status, `${method} ${path}`).toBe(401);
      const err = await json(res);
      expectShape(err, 'APIError');
      expect(err.message).toBe('auth required');
    }
  });

  it('refuses ?token= on token endpoints', async () => {
    const res = await s.request(`api/v1/users/${admin.username}/tokens`, { auth: { token: adminToken, as: 'query' } });
    expect(res.status).toBe(401);
  });

  it('refuses anonymous callers', async () => {
    const res = await s.request('api/v1/users/alice/tokens');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it('another non-admin user may not list or create tokens for alice', async () => {
    const eve = await createUser(s, 'eve');
    const list = await s.request('api/v1/users/alice/tokens', { auth: { basic: [eve.username, eve.password] } });
    expect(list.status).toBe(403);
    const create = await s.request('api/v1/users/alice/tokens', {
      method: 'POST', auth: { basic: [eve.username, eve.password] }, json: { name: 'stolen', scopes: ['all'] },
    });
    expect(create.status).toBe(403);
  });

  it('a site admin may manage tokens of another user with Basic auth', async () => {
    const res = await s.request('api/v1/users/alice/tokens', {
      method: 'POST', auth: { basic: [admin.username, admin.password] }, json: { name: 'by-admin', scopes: ['read:user'] },
    });
    expect(res.status).toBe(201);
    const token = (await json(res)).sha1 as string;
    await expectLogin(await whoAmI({ Authorization: `token ${token}` }), 'alice');
  });
});
