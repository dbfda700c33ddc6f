import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Auth, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;

const admin = (): Auth => as(s.admin);

const post = (path: string, body: unknown, auth: Auth = admin()) =>
  s.request(`api/v1/${path}`, { method: 'POST', auth, json: body });
const patch = (name: string, body: unknown, auth: Auth = admin()) =>
  s.request(`api/v1/admin/users/${name}`, { method: 'PATCH', auth, json: body });
const remove = (name: string, auth: Auth = admin()) =>
  s.request(`api/v1/admin/users/${name}`, { method: 'DELETE', auth });
const rename = (name: string, body: unknown, auth: Auth = admin()) =>
  post(`admin/users/${name}/rename`, body, auth);
const userRow = (name: string) =>
  s.hearth.db.selectFrom('user').selectAll().where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
const status = async (path: string, auth?: Auth) => (await s.request(`api/v1/${path}`, { auth })).status;
const adminList = async (query = '') => {
  const res = await s.request(`api/v1/admin/users${query}`, { auth: admin() });
  expect(res.status).toBe(200);
  const users = await json(res);
  expectShape(users, '[User]');
  return { res, users: users as { login: string; id: number }[], logins: (users as { login: string }[]).map((u) => u.login) };
};

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
});
afterAll(async () => { await s.stop(); });

describe('admin endpoints are for site admins', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', 'admin/users'],
    ['POST', 'admin/users', { username: 'sneaky', email: 'sneaky@example.com', password: 'password-123' }],
    ['PATCH', 'admin/users/alice', { admin: true }],
    ['DELETE', 'admin/users/alice'],
    ['POST', 'admin/users/alice/rename', { new_username: 'alice2' }],
    ['GET', 'admin/emails'],
    ['GET', 'admin/emails/search?q=alice'],
  ];

  it.each(calls)('%s /%s is 403 for a signed-in non-admin', async (method, path, body) => {
    const res = await s.request(`api/v1/${path}`, { method, auth: as(alice), json: body });
    expect(res.status).toBe(403);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });

  it.each(calls)('%s /%s is 401 for an anonymous caller', async (method, path, body) => {
    expect((await s.request(`api/v1/${path}`, { method, json: body })).status).toBe(401);
  });

  it('left everything as it was', async () => {
    expect(await status('users/sneaky', admin())).toBe(404);
    expect((await json(await s.request('api/v1/users/alice', { auth: admin() }))).is_admin).toBe(false);
  });

  it('needs the admin scope on a site admin\'s token', async () => {
    const noAdmin = await createToken(s, s.admin, ['write:user']);
    expect((await s.request('api/v1/admin/users', { auth: { token: noAdmin } })).status).toBe(403);
    const read = await createToken(s, s.admin, ['read:admin']);
    expect((await s.request('api/v1/admin/users', { auth: { token: read } })).status).toBe(200);
    expect((await s.request('api/v1/admin/emails', { auth: { token: read } })).status).toBe(200);
    const denied = await s.request('api/v1/admin/users', {
      method: 'POST', auth: { token: read }, json: { username: 'viaread', email: 'viaread@example.com', password: 'password-123' },
    });
    expect(denied.status).toBe(403);
    const write = await createToken(s, s.admin, ['write:admin']);
    const ok = await s.request('api/v1/admin/users', {
      method: 'POST', auth: { token: write }, json: { username: 'viawrite', email: 'viawrite@example.com', password: 'password-123' },
    });
    expect(ok.status).toBe(201);
  });
});

describe('POST /admin/users', () => {
  it('creates a user (201) answered with every User field', async () => {
    const res = await post('admin/users', { username: 'bob', email: 'bob@example.com', password: 'bob-secret-1' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'User');
    expectAllFields(body, 'User');
    expect(body).toMatchObject({
      login: 'bob', username: 'bob', email: 'bob@example.com', full_name: '', is_admin: false, active: true,
      prohibit_login: false, restricted: false, visibility: 'public', source_id: 0,
    });
    expect(body.id).toBeGreaterThan(alice.id);
    expect(Math.abs(Date.parse(body.created) - Date.now())).toBeLessThan(60_000);
    const emails = await json(await s.request(`api/v1/user/emails?sudo=bob`, { auth: admin() }));
    expect(emails).toEqual([{ email: 'bob@example.com', verified: true, primary: true, user_id: 0, username: '' }]);
  });

  it('makes the user change the password by default, as Gitea', async () => {
    expect((await userRow('bob'))?.must_change_password).toBe(1);
    // Until bob changes it, the API answers him 403 (test/api/must-change-password.test.ts).
    expect(await status('user', { basic: ['bob', 'bob-secret-1'] })).toBe(403);
    await post('admin/users', { username: 'bob2', email: 'bob2@example.com', password: 'bob-secret-2', must_change_password: false });
    expect((await userRow('bob2'))?.must_change_password).toBe(0);
  });

  it('stores the password hashed', async () => {
    const row = await userRow('bob');
    expect(row?.passwd).not.toContain('bob-secret-1');
    expect(row?.passwd_hash_algo).not.toBe('');
  });

  it('takes full_name, visibility, restricted and created_at', async () => {
    const res = await post('admin/users', {
      username: 'Carla', email: 'carla@example.com', password: 'carla-secret', full_name: 'Carla Bruni',
      visibility: 'private', restricted: true, created_at: '2020-02-03T04:05:06Z', send_notify: true,
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'User');
    expect(body).toMatchObject({ login: 'Carla', full_name: 'Carla Bruni', visibility: 'private', restricted: true });
    expect(body.created).toBe('2020-02-03T04:05:06Z');
    expect(await status('users/carla')).toBe(404);
    for (const visibility of ['limited', 'public', '']) {
      const r = await post('admin/users', {
        username: `vis-${visibility || 'default'}`, email: `vis-${visibility || 'default'}@example.com`, password: 'vis-secret', visibility,
      });
      expect(r.status).toBe(201);
      expect((await json(r)).visibility).toBe(visibility || 'public');
    }
  });

  it('lets the new user sign in with the password', async () => {
    await post('admin/users', { username: 'dora', email: 'dora@example.com', password: 'dora-secret', must_change_password: false });
    const res = await s.request('api/v1/user', { auth: { basic: ['dora', 'dora-secret'] } });
    expect(res.status).toBe(200);
    expect((await json(res)).login).toBe('dora');
  });

  it.each([
    ['a space', 'bad name'],
    ['a leading dash', '-dash'],
    ['a trailing dot', 'dot.'],
    ['two specials in a row', 'a..b'],
    ['a slash', 'a/b'],
    ['non-ASCII', 'ümlaut'],
    ['41 characters', 'x'.repeat(41)],
    ['an empty name', ''],
  ])('refuses an invalid name (%s) with 422', async (_what, username) => {
    const res = await post('admin/users', { username, email: 'invalid-name@example.com', password: 'password-123' });
    expect(res.status).toBe(422);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });

  it.each(['admin', 'API', 'login', 'ghost', 'user.keys', 'feed.rss', 'repo.atom', 'key.gpg'])(
    'refuses the reserved name %s with 422', async (username) => {
      const res = await post('admin/users', { username, email: 'reserved@example.com', password: 'password-123' });
      expect(res.status).toBe(422);
    },
  );

  it('accepts names with inner dashes, dots and underscores', async () => {
    const res = await post('admin/users', { username: 'a-b.c_d9', email: 'abcd@example.com', password: 'password-123' });
    expect(res.status).toBe(201);
  });

  it('refuses a taken name, case-insensitively (422), and writes nothing', async () => {
    const res = await post('admin/users', { username: 'ALICE', email: 'alice-again@example.com', password: 'password-123' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('already exists');
    const search = await s.request('api/v1/admin/emails/search?q=alice-again', { auth: admin() });
    expect(await json(search)).toEqual([]);
  });

  it('refuses a taken email, primary or not, case-insensitively (422), and writes nothing', async () => {
    const res = await post('admin/users', { username: 'eve', email: 'ALICE@example.com', password: 'password-123' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('already in use');
    const added = await s.request('api/v1/user/emails', { method: 'POST', auth: as(alice), json: { emails: ['alice.alt@example.com'] } });
    expect(added.status).toBe(201);
    expect((await post('admin/users', { username: 'eve', email: 'alice.alt@example.com', password: 'password-123' })).status).toBe(422);
    expect(await status('users/eve', admin())).toBe(404);
  });

  it.each([
    ['an invalid email', { username: 'frank', email: 'not-an-email', password: 'password-123' }],
    ['a missing email', { username: 'frank', password: 'password-123' }],
    ['a missing username', { email: 'frank@example.com', password: 'password-123' }],
    ['an unknown visibility', { username: 'frank', email: 'frank@example.com', password: 'password-123', visibility: 'secret' }],
    ['a non-boolean must_change_password', { username: 'frank', email: 'frank@example.com', password: 'password-123', must_change_password: 'no' }],
  ])('refuses %s with 422', async (_what, body) => {
    expect((await post('admin/users', body)).status).toBe(422);
    expect(await status('users/frank', admin())).toBe(404);
  });

  it('refuses a missing or too short password with 400, as Gitea', async () => {
    const short = await post('admin/users', { username: 'frank', email: 'frank@example.com', password: 'short' });
    expect(short.status).toBe(400);
    expect((await json(short)).message).toContain('password');
    expect((await post('admin/users', { username: 'frank', email: 'frank@example.com' })).status).toBe(400);
    expect(await status('users/frank', admin())).toBe(404);
    const minimum = await post('admin/users', { username: 'frank', email: 'frank@example.com', password: '12345678' });
    expect(minimum.status).toBe(201);
  });
});

describe('GET /admin/users', () => {
  it('lists every user, private ones included, with admin-only fields', async () => {
    const { users, logins, res } = await adminList('?limit=50');
    expect(logins).toEqual(expect.arrayContaining([s.admin.username, 'alice', 'bob', 'Carla']));
    expect(res.headers.get('x-total-count')).toBe(String(logins.length));
    for (const u of users) expectAllFields(u as unknown as Record<string, unknown>, 'User');
    const root = users.find((u) => u.login === s.admin.username) as unknown as Record<string, unknown>;
    expect(root).toMatchObject({ is_admin: true, active: true });
    const bob = users.find((u) => u.login === 'bob') as unknown as Record<string, unknown>;
    expect(bob).toMatchObject({ email: 'bob@example.com', active: true, is_admin: false });
  });

  // Gitea lists admin users alphabetically (SearchOrderByAlphabetically); hearth lists them by id,
  // which test/api/errors-pagination.test.ts pins. Only the stable order is asserted here.
  it('lists users in a stable order across pages', async () => {
    const all = (await adminList('?limit=50')).logins;
    const paged: string[] = [];
    for (let page = 1; paged.length < all.length; page += 1) {
      const { logins } = await adminList(`?limit=3&page=${page}`);
      expect(logins.length).toBeGreaterThan(0);
      paged.push(...logins);
    }
    expect(paged).toEqual(all);
  });

  it('pages with limit= and page=, X-Total-Count and Link', async () => {
    const all = (await adminList('?limit=50')).logins;
    const page2 = await adminList('?limit=2&page=2');
    expect(page2.logins).toEqual(all.slice(2, 4));
    expect(page2.res.headers.get('x-total-count')).toBe(String(all.length));
    const link = page2.res.headers.get('link') ?? '';
    for (const rel of ['next', 'last', 'first', 'prev']) expect(link).toContain(`rel="${rel}"`);
    expect(link).toContain('/api/v1/admin/users?');
    // Over the maximum page size: capped at max_response_items.
    const capped = await adminList('?limit=1000');
    expect(capped.logins.length).toBe(Math.min(all.length, s.hearth.config.api.max_response_items));
  });

  it('filters by login_name and source_id', async () => {
    expect((await patch('bob2', { login_name: 'ext-bob2' })).status).toBe(200);
    expect((await adminList('?login_name=ext-bob2')).logins).toEqual(['bob2']);
    expect((await adminList('?login_name=nobody')).logins).toEqual([]);
    expect((await adminList('?source_id=7')).logins).toEqual([]);
  });
});

describe('PATCH /admin/users/{username}', () => {
  let gina: Creds;
  beforeAll(async () => { gina = await createUser(s, 'gina', { full_name: 'Gina' }); });

  it('refuses to demote the last site admin (400)', async () => {
    const res = await patch(s.admin.username, { admin: false });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toContain('last');
    expect((await userRow(s.admin.username))?.is_admin).toBe(1);
  });

  it('edits the profile fields and answers the User', async () => {
    const res = await patch('gina', {
      full_name: 'Gina Torres', website: 'https://gina.example.com', location: 'Serenity', description: 'First mate',
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'User');
    expectAllFields(body, 'User');
    expect(body).toMatchObject({
      login: 'gina', full_name: 'Gina Torres', website: 'https://gina.example.com', location: 'Serenity', description: 'First mate',
    });
    // Fields left out stay as they were.
    const again = await json(await patch('gina', { location: 'Persephone' }));
    expect(again).toMatchObject({ full_name: 'Gina Torres', location: 'Persephone', description: 'First mate' });
  });

  it('grants and removes site admin rights', async () => {
    const granted = await json(await patch('gina', { admin: true }));
    expect(granted.is_admin).toBe(true);
    expect(await status('admin/users', as(gina))).toBe(200);
    const removed = await json(await patch('gina', { admin: false }));
    expect(removed.is_admin).toBe(false);
    expect(await status('admin/users', as(gina))).toBe(403);
  });

  it('deactivates and reactivates (an inactive user gets 403)', async () => {
    expect((await json(await patch('gina', { active: false }))).active).toBe(false);
    expect(await status('user', as(gina))).toBe(403);
    expect((await json(await patch('gina', { active: true }))).active).toBe(true);
    expect(await status('user', as(gina))).toBe(200);
  });

  it('prohibits and allows login (a prohibited user gets 403, with a token too)', async () => {
    const token = await createToken(s, gina, ['read:user']);
    expect((await json(await patch('gina', { prohibit_login: true }))).prohibit_login).toBe(true);
    expect(await status('user', as(gina))).toBe(403);
    expect((await s.request('api/v1/user', { auth: { token } })).status).toBe(403);
    expect((await json(await patch('gina', { prohibit_login: false }))).prohibit_login).toBe(false);
    expect(await status('user', as(gina))).toBe(200);
  });

  it('sets restricted, visibility and the other flags', async () => {
    const body = await json(await patch('gina', {
      restricted: true, visibility: 'limited', must_change_password: true, allow_git_hook: true,
      allow_import_local: true, allow_create_organization: false, max_repo_creation: 3,
    }));
    expect(body).toMatchObject({ restricted: true, visibility: 'limited' });
    expect(await status('users/gina')).toBe(404);
    expect(await userRow('gina')).toMatchObject({
      is_restricted: 1, visibility: 1, must_change_password: 1, allow_git_hook: 1, allow_import_local: 1,
      allow_create_organization: 0, max_repo_creation: 3,
    });
    const back = await json(await patch('gina', { restricted: false, visibility: 'public', must_change_password: false }));
    expect(back).toMatchObject({ restricted: false, visibility: 'public' });
    expect(await status('users/gina')).toBe(200);
  });

  it('changes the primary email, keeping the old one as a secondary address', async () => {
    const res = await patch('gina', { email: 'gina.new@example.com' });
    expect(res.status).toBe(200);
    expect((await json(res)).email).toBe('gina.new@example.com');
    const emails = await json(await s.request('api/v1/user/emails', { auth: as(gina) }));
    expectShape(emails, '[Email]');
    expect(emails.find((e: { primary: boolean }) => e.primary).email).toBe('gina.new@example.com');
    expect(emails.map((e: { email: string }) => e.email)).toContain('gina@example.com');
    // Back to an address the user already has.
    expect((await json(await patch('gina', { email: 'gina@example.com' }))).email).toBe('gina@example.com');
    const after = await json(await s.request('api/v1/user/emails', { auth: as(gina) }));
    expect(after.filter((e: { primary: boolean }) => e.primary).map((e: { email: string }) => e.email)).toEqual(['gina@example.com']);
  });

  // Gitea's EditUser answers 400 (EmailUsed, EmailInvalid); hearth answers 422, which
  // test/api/errors-pagination.test.ts pins. Either refuses, and nothing may change.
  it('refuses an email used by another user, and nothing changes', async () => {
    const res = await patch('gina', { email: 'alice@example.com', full_name: 'Should Not Stick' });
    expect([400, 422]).toContain(res.status);
    expect((await json(res)).message).toContain('alice@example.com');
    const row = await userRow('gina');
    expect(row?.email).toBe('gina@example.com');
    expect(row?.full_name).toBe('Gina Torres');
  });

  it('refuses an invalid email', async () => {
    const res = await patch('gina', { email: 'not an email' });
    expect([400, 422]).toContain(res.status);
    expect((await userRow('gina'))?.email).toBe('gina@example.com');
  });

  it('changes the password; a short one is a 400', async () => {
    expect((await patch('gina', { password: 'short' })).status).toBe(400);
    expect(await status('user', as(gina))).toBe(200);
    expect((await patch('gina', { password: 'gina-new-secret' })).status).toBe(200);
    expect(await status('user', as(gina))).toBe(401);
    expect(await status('user', { basic: ['gina', 'gina-new-secret'] })).toBe(200);
    gina = { ...gina, password: 'gina-new-secret' };
  });

  it('regression: website must be empty or an http(s) URL (Gitea ValidUrl), 422', async () => {
    for (const website of ['not a url', 'javascript:alert(1)']) {
      const res = await patch('gina', { website });
      expect(res.status, website).toBe(422);
      expect((await json(res)).message).toContain('website');
    }
    expect((await json(await patch('gina', { website: '' }))).website).toBe('');
  });

  it.each([
    ['full_name', 'x'.repeat(101)],
    ['location', 'x'.repeat(51)],
    ['description', 'x'.repeat(256)],
    ['visibility', 'secret'],
    ['admin', 'yes'],
    ['max_repo_creation', 1.5],
  ])('refuses an invalid %s with 422', async (field, value) => {
    const res = await patch('gina', { [field]: value });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain(field);
  });

  it('is 404 for an unknown user', async () => {
    expect((await patch('nobody', { full_name: 'x' })).status).toBe(404);
  });
});

describe('DELETE /admin/users/{username}', () => {
  it('deletes a user (204): gone, tokens dead, addresses freed', async () => {
    const henry = await createUser(s, 'henry');
    const token = await createToken(s, henry, ['read:user']);
    await s.request('api/v1/user/emails', { method: 'POST', auth: as(henry), json: { emails: ['henry.alt@example.com'] } });
    const res = await remove('henry');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await status('users/henry', admin())).toBe(404);
    expect((await s.request('api/v1/user', { auth: { token } })).status).toBe(401);
    expect(await status('user', as(henry))).toBe(401);
    const emails = await json(await s.request('api/v1/admin/emails/search?q=henry', { auth: admin() }));
    expect(emails).toEqual([]);
    const again = await post('admin/users', { username: 'henry', email: 'henry.alt@example.com', password: 'password-123' });
    expect(again.status).toBe(201);
    expect((await json(again)).id).not.toBe(henry.id);
  });

  it('is 404 for an unknown user', async () => {
    const res = await remove('nobody');
    expect(res.status).toBe(404);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });

  it('refuses to delete the caller itself (422)', async () => {
    const res = await remove(s.admin.username);
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('you cannot delete yourself');
    expect(await status('user', admin())).toBe(200);
  });

  it('deletes another site admin', async () => {
    const ivan = await createUser(s, 'ivan');
    expect((await patch('ivan', { admin: true })).status).toBe(200);
    expect((await remove('ivan')).status).toBe(204);
    expect(await status('user', as(ivan))).toBe(401);
  });
});

describe('POST /admin/users/{username}/rename', () => {
  it('renames (204): the old name is gone, the id, password and tokens carry over', async () => {
    const jack = await createUser(s, 'jack');
    const token = await createToken(s, jack, ['read:user']);
    const res = await rename('jack', { new_username: 'jacques' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    // The old name redirects to the new one (Gitea's user_redirect), until an account takes it.
    const old = await s.request('api/v1/users/jack', { auth: admin(), redirect: 'manual' });
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toMatch(/\/api\/v1\/users\/jacques$/);
    const renamed = await json(await s.request('api/v1/users/jacques', { auth: admin() }));
    expectShape(renamed, 'User');
    expect(renamed).toMatchObject({ id: jack.id, login: 'jacques' });
    expect(await status('user', { basic: ['jacques', jack.password] })).toBe(200);
    expect(await status('user', as(jack))).toBe(401);
    expect((await json(await s.request('api/v1/user', { auth: { token } }))).login).toBe('jacques');
    // The old name is free again.
    expect((await post('admin/users', { username: 'jack', email: 'jack2@example.com', password: 'password-123' })).status).toBe(201);
    expect((await json(await s.request('api/v1/users/jack', { auth: admin(), redirect: 'manual' }))).email).toBe('jack2@example.com');
  });

  it('changes only the case of a name', async () => {
    expect((await rename('jacques', { new_username: 'Jacques' })).status).toBe(204);
    expect((await json(await s.request('api/v1/users/jacques', { auth: admin() }))).login).toBe('Jacques');
    expect((await rename('Jacques', { new_username: 'Jacques' })).status).toBe(204);
  });

  it('refuses a name taken by another user, case-insensitively (422)', async () => {
    const res = await rename('Jacques', { new_username: 'ALICE' });
    expect(res.status).toBe(422);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
    expect(await status('users/Jacques', admin())).toBe(200);
  });

  it.each([
    ['an invalid name', { new_username: 'bad name' }],
    ['a reserved name', { new_username: 'admin' }],
    ['a reserved pattern', { new_username: 'x.keys' }],
    ['an empty name', { new_username: '' }],
    ['a missing name', {}],
  ])('refuses %s (422)', async (_what, body) => {
    expect((await rename('Jacques', body)).status).toBe(422);
    expect(await status('users/Jacques', admin())).toBe(200);
  });

  it('is 404 for an unknown user', async () => {
    expect((await rename('nobody', { new_username: 'somebody' })).status).toBe(404);
  });
});

describe('GET /admin/emails and /admin/emails/search', () => {
  type ApiEmail = { email: string; primary: boolean; verified: boolean; user_id: number; username: string };
  const emails = async (path: string) => {
    const res = await s.request(`api/v1/${path}`, { auth: admin() });
    expect(res.status).toBe(200);
    const body = (await json(res)) as ApiEmail[];
    expectShape(body, '[Email]');
    return { res, body, addresses: body.map((e) => e.email) };
  };

  beforeAll(async () => {
    const kate = await createUser(s, 'kate', { full_name: 'Katherine Zeta' });
    await s.request('api/v1/user/emails', { method: 'POST', auth: as(kate), json: { emails: ['aaa-kate@example.com'] } });
  });

  it('lists every user\'s addresses with the owner', async () => {
    const { body, res } = await emails('admin/emails?limit=50');
    expect(body).toEqual(expect.arrayContaining([
      { email: 'alice@example.com', verified: true, primary: true, user_id: alice.id, username: 'alice' },
      expect.objectContaining({ email: 'alice.alt@example.com', primary: false, username: 'alice' }),
      expect.objectContaining({ email: 'aaa-kate@example.com', primary: false, username: 'kate' }),
      expect.objectContaining({ email: 'root@example.com', primary: true, username: s.admin.username }),
    ]));
    expect(res.headers.get('x-total-count')).toBe(String(body.length));
  });

  it('regression: orders by address, as Gitea (SearchEmailOrderByEmail)', async () => {
    const { addresses } = await emails('admin/emails?limit=50');
    expect(addresses).toEqual([...addresses].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(addresses[0]).toBe('aaa-kate@example.com');
  });

  it('pages with limit= and page=', async () => {
    const all = (await emails('admin/emails?limit=50')).addresses;
    const page = await emails('admin/emails?limit=3&page=2');
    expect(page.addresses).toEqual(all.slice(3, 6));
    expect(page.res.headers.get('x-total-count')).toBe(String(all.length));
    expect(page.res.headers.get('link')).toContain('rel="prev"');
  });

  it('searches by part of the address or the user name, case-insensitively', async () => {
    expect((await emails('admin/emails/search?q=ALICE.ALT')).addresses).toEqual(['alice.alt@example.com']);
    const byUser = await emails('admin/emails/search?q=alice');
    expect(byUser.addresses.sort()).toEqual(['alice.alt@example.com', 'alice@example.com']);
    expect(byUser.res.headers.get('x-total-count')).toBe('2');
    const none = await emails('admin/emails/search?q=zzz-nothing');
    expect(none.body).toEqual([]);
    expect(none.res.headers.get('x-total-count')).toBe('0');
  });

  it('regression: searches the full name too, as Gitea', async () => {
    const { addresses } = await emails('admin/emails/search?q=zeta');
    expect(addresses).toEqual(['aaa-kate@example.com', 'kate@example.com']);
  });

  it('answers every address for a search without q', async () => {
    const all = await emails('admin/emails?limit=50');
    const search = await emails('admin/emails/search?limit=50');
    expect(search.body).toEqual(all.body);
  });
});
