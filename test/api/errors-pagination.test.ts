import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicHeader, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Error bodies and codes every endpoint inherits, failed writes leaving nothing behind, and the
// pagination helper (page/limit, X-Total-Count, Link, CORS exposure).

let s: TestServer;
let adminAuth: { basic: [string, string] };
let root: string;

const USERS = ['p1', 'p2', 'p3', 'p4', 'p5'];

const adminUsers = (query = '') => s.request(`api/v1/admin/users${query}`, { auth: adminAuth });
const createViaAdmin = (body: unknown) => s.request('api/v1/admin/users', { method: 'POST', auth: adminAuth, json: body });

async function userCount(): Promise<number> {
  const res = await adminUsers('?limit=1');
  expect(res.status).toBe(200);
  return Number(res.headers.get('x-total-count'));
}

async function expectError(res: Response, status: number): Promise<{ message: string; url: string }> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body = await json(res);
  expectShape(body, 'APIError');
  expect(Object.keys(body).sort()).toEqual(['message', 'url']);
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toBe('');
  return body;
}

/** `Link` as rel → URL, keeping the order the server sent. */
function linksOf(res: Response): [string, string][] {
  const header = res.headers.get('link');
  if (!header) return [];
  return header.split(',').map((part) => {
    const m = /^\s*<([^>]+)>;\s*rel="([a-z]+)"\s*$/.exec(part);
    if (!m) throw new Error(`malformed Link part: ${part}`);
    return [m[2]!, m[1]!];
  });
}

const logins = async (res: Response): Promise<string[]> => ((await json(res)) as { login: string }[]).map((u) => u.login);

beforeAll(async () => {
  s = await startTestServer();
  adminAuth = { basic: [s.admin.username, s.admin.password] };
  root = s.hearth.config.server.root_url;
  for (const name of USERS) await createUser(s, name);
});
afterAll(async () => { await s.stop(); });

describe('error bodies', () => {
  it('a malformed JSON body is 400 with {message, url}', async () => {
    const res = await s.request('api/v1/admin/users', {
      method: 'POST', auth: adminAuth, headers: { 'Content-Type': 'application/json' }, body: '{"username": "half',
    });
    const body = await expectError(res, 400);
    expect(body.message).toMatch(/json/i);
    expect(body.url).toBe(`${root}api/swagger`);
  });

  it('a malformed body without a JSON content type is still read as JSON: 400', async () => {
    const res = await s.request('api/v1/user/settings', { method: 'PATCH', auth: adminAuth, body: '{not json' });
    await expectError(res, 400);
  });

  it('a malformed body changes nothing', async () => {
    const before = await userCount();
    const res = await s.request('api/v1/admin/users', {
      method: 'POST', auth: adminAuth, headers: { 'Content-Type': 'application/json' },
      body: '{"username": "ghostly", "email": "ghostly@example.com", "password": "long-enough-pw"',
    });
    await expectError(res, 400);
    expect(await userCount()).toBe(before);
  });

  it.each([
    ['a missing username', { email: 'x1@example.com', password: 'long-enough-pw' }, 'username'],
    ['a missing email', { username: 'x2', password: 'long-enough-pw' }, 'email'],
    ['a username of the wrong type', { username: 42, email: 'x3@example.com', password: 'long-enough-pw' }, 'username'],
    ['an invalid email', { username: 'x4', email: 'not-an-email', password: 'long-enough-pw' }, 'email'],
    ['an email with a space', { username: 'x5', email: 'x5 @example.com', password: 'long-enough-pw' }, 'email'],
    ['a too long full name', { username: 'x6', email: 'x6@example.com', password: 'long-enough-pw', full_name: 'f'.repeat(101) }, 'full_name'],
    ['an unknown visibility', { username: 'x7', email: 'x7@example.com', password: 'long-enough-pw', visibility: 'secret' }, 'visibility'],
    ['an empty body', undefined, 'username'],
  ])('admin create user with %s is 422 naming the field', async (_case, body, field) => {
    const before = await userCount();
    const res = await s.request('api/v1/admin/users', { method: 'POST', auth: adminAuth, json: body });
    const err = await expectError(res, 422);
    expect(err.message).toContain(field);
    expect(await userCount()).toBe(before);
  });

  it('admin edit with a field of the wrong type is 422 naming the field', async () => {
    const res = await s.request('api/v1/admin/users/p1', { method: 'PATCH', auth: adminAuth, json: { active: 'yes' } });
    const err = await expectError(res, 422);
    expect(err.message).toContain('active');
  });

  it('a reserved user name is 422', async () => {
    const res = await createViaAdmin({ username: 'admin', email: 'reserved@example.com', password: 'long-enough-pw' });
    const err = await expectError(res, 422);
    expect(err.message).toContain('reserved');
  });

  it.each([
    ['GET', 'api/v1/no/such/route'],
    ['POST', 'api/v1/no/such/route'],
    ['DELETE', 'api/v1/user/no-such-thing'],
    ['GET', 'api/v1/admin/nothing-here'],
  ])('an unknown route (%s %s) is a JSON 404', async (method, path) => {
    const res = await s.request(path, { method, auth: adminAuth, json: method === 'POST' ? {} : undefined });
    const err = await expectError(res, 404);
    expect(err.url).toBe(`${root}api/swagger`);
  });

  it('an unknown route is a JSON 404 for anonymous callers too', async () => {
    await expectError(await s.request('api/v1/nope'), 404);
  });

  it('errors carry a request id header', async () => {
    const res = await s.request('api/v1/nope');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('conflicts and half-written requests', () => {
  it('a taken user name is 422, as Gitea, and creates nothing', async () => {
    const before = await userCount();
    const res = await createViaAdmin({ username: 'p1', email: 'another-p1@example.com', password: 'long-enough-pw' });
    const err = await expectError(res, 422);
    expect(err.message).toBe('user already exists [name: p1]');
    expect(await userCount()).toBe(before);
  });

  it('user names conflict whatever their case', async () => {
    const res = await createViaAdmin({ username: 'P2', email: 'upper-p2@example.com', password: 'long-enough-pw' });
    const err = await expectError(res, 422);
    expect(err.message).toContain('user already exists');
  });

  it('a taken email is 422, creates nothing, and leaves the name free', async () => {
    const before = await userCount();
    const res = await createViaAdmin({ username: 'newcomer', email: 'p3@example.com', password: 'long-enough-pw' });
    const err = await expectError(res, 422);
    expect(err.message).toContain('e-mail already in use');
    expect(await userCount()).toBe(before);
    expect((await s.request('api/v1/users/newcomer', { auth: adminAuth })).status).toBe(404);
    // Nothing of the failed attempt blocks a correct one.
    const again = await createViaAdmin({ username: 'newcomer', email: 'newcomer@example.com', password: 'long-enough-pw' });
    expect(again.status).toBe(201);
    expectShape(await json(again), 'User');
    expect(await userCount()).toBe(before + 1);
    const del = await s.request('api/v1/admin/users/newcomer', { method: 'DELETE', auth: adminAuth });
    expect(del.status).toBe(204);
  });

  it('emails conflict whatever their case', async () => {
    const before = await userCount();
    const res = await createViaAdmin({ username: 'shouter', email: 'P4@EXAMPLE.COM', password: 'long-enough-pw' });
    await expectError(res, 422);
    expect(await userCount()).toBe(before);
  });

  it('a too short password is refused and creates nothing', async () => {
    const before = await userCount();
    const res = await createViaAdmin({ username: 'shortpw', email: 'shortpw@example.com', password: 'x' });
    expect(res.status).toBe(400);
    await expectError(res, 400);
    expect(await userCount()).toBe(before);
  });

  it('an admin edit with a taken email is 422 and applies none of its other fields', async () => {
    const res = await s.request('api/v1/admin/users/p5', {
      method: 'PATCH', auth: adminAuth, json: { full_name: 'Should Not Stick', location: 'Nowhere', email: 'p4@example.com' },
    });
    await expectError(res, 422);
    const user = await json(await s.request('api/v1/users/p5', { auth: adminAuth }));
    expect(user.full_name).toBe('');
    expect(user.location).toBe('');
    expect(user.email).toBe('p5@example.com');
  });

  it('a rename to a taken name is 422 and keeps the old name', async () => {
    const res = await s.request('api/v1/admin/users/p5/rename', { method: 'POST', auth: adminAuth, json: { new_username: 'p4' } });
    await expectError(res, 422);
    expect((await s.request('api/v1/users/p5', { auth: adminAuth })).status).toBe(200);
  });
});

describe('pagination', () => {
  const ALL = 1 + USERS.length; // the first admin and the users created above

  it('limit and page select a slice; X-Total-Count counts everything', async () => {
    const res = await adminUsers('?limit=2&page=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(ALL));
    const body = await json(res);
    expect(body).toHaveLength(2);
    expectShape(body, '[User]');
    expect(body.map((u: { login: string }) => u.login)).toEqual(['p2', 'p3']);
  });

  it('pages do not overlap and together hold every user', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) seen.push(...(await logins(await adminUsers(`?limit=2&page=${page}`))));
    expect(seen).toEqual([s.admin.username, ...USERS]);
  });

  it('Link has next, last, first and prev, absolute from the root URL, keeping other parameters', async () => {
    const res = await adminUsers('?limit=2&page=2&extra=kept');
    const url = (page: number) => `${root}api/v1/admin/users?extra=kept&limit=2&page=${page}`;
    expect(linksOf(res)).toEqual([['next', url(3)], ['last', url(3)], ['first', url(1)], ['prev', url(1)]]);
  });

  it('the first page has only next and last', async () => {
    const res = await adminUsers('?limit=2');
    const url = (page: number) => `${root}api/v1/admin/users?limit=2&page=${page}`;
    expect(linksOf(res)).toEqual([['next', url(2)], ['last', url(3)]]);
  });

  it('the last page has only first and prev', async () => {
    const res = await adminUsers('?limit=2&page=3');
    const url = (page: number) => `${root}api/v1/admin/users?limit=2&page=${page}`;
    expect(linksOf(res)).toEqual([['first', url(1)], ['prev', url(2)]]);
    expect(await json(res)).toHaveLength(2);
  });

  it('a single page sends no Link, but still X-Total-Count', async () => {
    const res = await adminUsers();
    expect(res.headers.get('link')).toBeNull();
    expect(res.headers.get('x-total-count')).toBe(String(ALL));
    expect(await json(res)).toHaveLength(ALL);
  });

  it('Link beyond the last page counts from the last page, as Gitea', async () => {
    const res = await adminUsers('?limit=2&page=5');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([]);
    const url = (page: number) => `${root}api/v1/admin/users?limit=2&page=${page}`;
    expect(linksOf(res)).toEqual([['first', url(1)], ['prev', url(2)]]);
  });

  it('Link beyond the only page is absent, as Gitea', async () => {
    const res = await adminUsers('?page=4');
    expect(await json(res)).toEqual([]);
    expect(res.headers.get('link')).toBeNull();
    expect(res.headers.get('x-total-count')).toBe(String(ALL));
  });

  it.each(['0', '-1', 'abc', ''])('page=%s is page 1', async (page) => {
    const res = await adminUsers(`?limit=2&page=${page}`);
    expect(await logins(res)).toEqual([s.admin.username, 'p1']);
    expect(linksOf(res).map(([rel]) => rel)).toEqual(['next', 'last']);
  });

  it.each(['0', '-5', 'abc'])('limit=%s is the default', async (limit) => {
    const res = await adminUsers(`?limit=${limit}`);
    expect(await json(res)).toHaveLength(ALL); // the default, 30, holds them all
  });

  it('limit or page with trailing garbage is not a number, as Gitea (strconv.Atoi)', async () => {
    expect(await json(await adminUsers('?limit=2abc'))).toHaveLength(ALL);
    expect(await json(await adminUsers('?limit=2.5'))).toHaveLength(ALL);
    expect(await logins(await adminUsers('?limit=2&page=2abc'))).toEqual([s.admin.username, 'p1']);
    expect(await logins(await adminUsers('?limit=%2B2&page=%2B2'))).toEqual(['p2', 'p3']);
  });

  it('Access-Control-Expose-Headers includes Link and X-Total-Count', async () => {
    const res = await adminUsers('?limit=2&page=2');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(exposed).toContain('link');
    expect(exposed).toContain('x-total-count');
    expect(exposed.filter((h) => h === 'link')).toHaveLength(1);
  });

  it('a CORS preflight answers any origin', async () => {
    const res = await s.request('api/v1/admin/users', {
      method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('other listings paginate the same way (token list)', async () => {
    const me = { username: 'p1', password: 'pw-p1-secret' };
    for (const name of ['a', 'b', 'c']) {
      const res = await s.request('api/v1/users/p1/tokens', {
        method: 'POST', auth: { basic: [me.username, me.password] }, json: { name, scopes: ['read:user'] },
      });
      expect(res.status).toBe(201);
    }
    const res = await s.request('api/v1/users/p1/tokens?limit=2&page=2', { auth: { basic: [me.username, me.password] } });
    expect(res.headers.get('x-total-count')).toBe('3');
    const body = await json(res);
    expectShape(body, '[AccessToken]');
    expect(body).toHaveLength(1);
    expect(linksOf(res).map(([rel]) => rel)).toEqual(['first', 'prev']);
  });
});

describe('pagination limits from the configuration, behind a root URL with a path', () => {
  // The server cannot be reached through this root URL: requests go to the real address.
  const ROOT = 'https://forge.example.com/hearth/';
  let t: TestServer;
  let auth: string;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, t.url), { ...init, headers: { Authorization: auth, ...(init.headers as Record<string, string>) } });

  beforeAll(async () => {
    t = await startTestServer({
      HEARTH__API__MAX_RESPONSE_ITEMS: '3', HEARTH__API__DEFAULT_PAGING_NUM: '2', HEARTH__SERVER__ROOT_URL: ROOT,
    });
    auth = basicHeader(t.admin.username, t.admin.password);
    for (const name of ['q1', 'q2', 'q3', 'q4']) {
      const res = await call('api/v1/admin/users', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: name, email: `${name}@example.com`, password: 'long-enough-pw' }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => { await t.stop(); });

  it('limit over the maximum is capped at the maximum', async () => {
    const res = await call('api/v1/admin/users?limit=1000');
    expect(await json(res)).toHaveLength(3);
    expect(res.headers.get('x-total-count')).toBe('5');
    // The links keep the limit asked for; the pages are counted with the capped one.
    const url = (page: number) => `${ROOT}api/v1/admin/users?limit=1000&page=${page}`;
    expect(linksOf(res)).toEqual([['next', url(2)], ['last', url(2)]]);
  });

  it('no limit, or limit=0, is the configured default', async () => {
    expect(await json(await call('api/v1/admin/users'))).toHaveLength(2);
    expect(await json(await call('api/v1/admin/users?limit=0'))).toHaveLength(2);
  });

  it('Link is absolute from root_url, not from the address the request came to', async () => {
    const res = await call('api/v1/admin/users?page=2');
    const url = (page: number) => `${ROOT}api/v1/admin/users?page=${page}`;
    expect(linksOf(res)).toEqual([['next', url(3)], ['last', url(3)], ['first', url(1)], ['prev', url(1)]]);
  });

  it('settings/api reports the configured limits', async () => {
    const body = await json(await call('api/v1/settings/api'));
    expectShape(body, 'GeneralAPISettings');
    expect(body).toMatchObject({ default_paging_num: 2, max_response_items: 3 });
  });

  it('error bodies point at the swagger UI under root_url', async () => {
    const res = await call('api/v1/no/such/route');
    expect((await expectError(res, 404)).url).toBe(`${ROOT}api/swagger`);
  });
});
