import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Auth, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // public
let bob: Creds; // public, keeps the email private
let lim: Creds; // limited visibility
let priv: Creds; // private visibility
let rest: Creds; // restricted account

const adminAuth = (): Auth => as(s.admin);
// Gitea's placeholder address for a hidden email: <lower name>@noreply.<domain of ROOT_URL>.
const noReply = (name: string) => `${name.toLowerCase()}@noreply.127.0.0.1`;
// A zero Go time.Time, as Gitea renders the admin-only last_login to other callers.
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

beforeAll(async () => {
  // An admin address the reference's `format: email` accepts, whatever the configured default.
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob', { full_name: 'Robert Builder' });
  lim = await createUser(s, 'limmy', { visibility: 'limited', full_name: 'Limited Lim' });
  priv = await createUser(s, 'privy', { visibility: 'private', full_name: 'Private Priv' });
  rest = await createUser(s, 'resty', { restricted: true });
  const res = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(bob), json: { hide_email: true } });
  expect(res.status).toBe(200);
});
afterAll(async () => { await s.stop(); });

describe('GET /user', () => {
  it('needs a signed-in caller', async () => {
    const res = await s.request('api/v1/user');
    expect(res.status).toBe(401);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });

  it('answers the caller with every User field', async () => {
    const res = await s.request('api/v1/user', { auth: as(alice) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'User');
    expectAllFields(body, 'User');
    expect(body).toMatchObject({
      id: alice.id, login: 'alice', username: 'alice', full_name: 'Alice Liddell', email: 'alice@example.com',
      is_admin: false, active: true, prohibit_login: false, restricted: false, visibility: 'public',
      login_name: '', source_id: 0, followers_count: 0, following_count: 0, starred_repos_count: 0,
    });
    expect(body.html_url).toBe(`${s.hearth.config.server.root_url}alice`);
    expect(body.avatar_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/avatars\/[0-9a-f]{32}$/);
    expect(Math.abs(Date.parse(body.created) - Date.now())).toBeLessThan(60_000);
  });

  it('shows a site admin its own admin flag', async () => {
    const body = await json(await s.request('api/v1/user', { auth: adminAuth() }));
    expectShape(body, 'User');
    expect(body).toMatchObject({ login: s.admin.username, is_admin: true, active: true });
  });

  it('works with a token carrying read:user', async () => {
    const token = await createToken(s, alice, ['read:user']);
    const res = await s.request('api/v1/user', { auth: { token } });
    expect(res.status).toBe(200);
    expect((await json(res)).login).toBe('alice');
  });

  it('refuses a token without the user scope (403)', async () => {
    const token = await createToken(s, alice, ['read:repository']);
    expect((await s.request('api/v1/user', { auth: { token } })).status).toBe(403);
  });
});

describe('GET /users/{username}', () => {
  it('answers a public user to anonymous callers, email hidden', async () => {
    const res = await s.request('api/v1/users/alice');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'User');
    expectAllFields(body, 'User');
    expect(body.login).toBe('alice');
    expect(body.id).toBe(alice.id);
    expect(body.email).toBe(noReply('alice'));
  });

  it('looks the name up case-insensitively and answers the stored spelling', async () => {
    const body = await json(await s.request('api/v1/users/ALICE', { auth: as(bob) }));
    expect(body.login).toBe('alice');
  });

  it('is 404 for an unknown user', async () => {
    const res = await s.request('api/v1/users/nobody-here');
    expect(res.status).toBe(404);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });

  it('shows the email to signed-in callers unless it is kept private', async () => {
    expect((await json(await s.request('api/v1/users/alice', { auth: as(bob) }))).email).toBe('alice@example.com');
    expect((await json(await s.request('api/v1/users/bob', { auth: as(alice) }))).email).toBe(noReply('bob'));
    expect((await json(await s.request('api/v1/users/bob'))).email).toBe(noReply('bob'));
  });

  it('shows a private email to the user itself and to site admins', async () => {
    expect((await json(await s.request('api/v1/users/bob', { auth: as(bob) }))).email).toBe('bob@example.com');
    expect((await json(await s.request('api/v1/users/bob', { auth: adminAuth() }))).email).toBe('bob@example.com');
  });

  it('hides admin-only fields from other callers', async () => {
    const other = await json(await s.request(`api/v1/users/${s.admin.username}`, { auth: as(alice) }));
    expectShape(other, 'User');
    expect(other).toMatchObject({ is_admin: false, active: false, prohibit_login: false, language: '', login_name: '' });
    const self = await json(await s.request(`api/v1/users/${s.admin.username}`, { auth: adminAuth() }));
    expect(self).toMatchObject({ is_admin: true, active: true });
  });

  it('regression: the hidden last_login is Gitea\'s zero time, not 1970', async () => {
    const other = await json(await s.request('api/v1/users/alice', { auth: as(bob) }));
    expect(other.last_login).toBe(GO_ZERO_TIME);
    const self = await json(await s.request('api/v1/users/alice', { auth: as(alice) }));
    expect(self.last_login).not.toBe(GO_ZERO_TIME);
    expectShape(self, 'User');
  });

  it('hides a limited user from anonymous and restricted callers (404)', async () => {
    expect((await s.request('api/v1/users/limmy')).status).toBe(404);
    expect((await s.request('api/v1/users/limmy', { auth: as(rest) })).status).toBe(404);
    const seen = await s.request('api/v1/users/limmy', { auth: as(alice) });
    expect(seen.status).toBe(200);
    const body = await json(seen);
    expectShape(body, 'User');
    expect(body.visibility).toBe('limited');
    expect((await s.request('api/v1/users/limmy', { auth: as(lim) })).status).toBe(200);
    expect((await s.request('api/v1/users/limmy', { auth: adminAuth() })).status).toBe(200);
  });

  it('hides a private user from everyone but itself and site admins (404)', async () => {
    expect((await s.request('api/v1/users/privy')).status).toBe(404);
    expect((await s.request('api/v1/users/privy', { auth: as(alice) })).status).toBe(404);
    expect((await s.request('api/v1/users/privy', { auth: as(rest) })).status).toBe(404);
    const self = await s.request('api/v1/users/privy', { auth: as(priv) });
    expect(self.status).toBe(200);
    expect((await json(self)).visibility).toBe('private');
    expect((await s.request('api/v1/users/privy', { auth: adminAuth() })).status).toBe(200);
  });

  it('lets a restricted caller see public users', async () => {
    const res = await s.request('api/v1/users/alice', { auth: as(rest) });
    expect(res.status).toBe(200);
    expect((await json(await s.request('api/v1/users/resty', { auth: as(rest) }))).restricted).toBe(true);
  });

  it('refuses a public-only token to look at a limited user', async () => {
    const token = await createToken(s, alice, ['read:user', 'public-only']);
    expect((await s.request('api/v1/users/alice', { auth: { token } })).status).toBe(200);
    expect((await s.request('api/v1/users/limmy', { auth: { token } })).status).toBe(403);
  });
});

describe('GET /users/search', () => {
  const search = async (query: string, auth?: Auth) => {
    const res = await s.request(`api/v1/users/search${query}`, { auth });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['data', 'ok']);
    expect(body.ok).toBe(true);
    expectShape(body.data, '[User]');
    return { res, body, logins: (body.data as { login: string }[]).map((u) => u.login) };
  };

  it('answers {ok, data} with only public users to anonymous callers', async () => {
    const { res, logins, body } = await search('');
    expect(logins).toEqual(expect.arrayContaining(['alice', 'bob', 'resty', s.admin.username]));
    expect(logins).not.toContain('limmy');
    expect(logins).not.toContain('privy');
    expect(res.headers.get('x-total-count')).toBe(String(logins.length));
    // Anonymous callers never see real addresses.
    for (const u of body.data) expect(u.email).toMatch(/@noreply\./);
  });

  it('regression: lists users alphabetically by name, as Gitea (not by id)', async () => {
    const { logins } = await search('', adminAuth());
    expect(logins).toEqual([...logins].sort());
    expect(logins).toEqual(['alice', 'bob', 'limmy', 'privy', 'resty', s.admin.username].sort());
  });

  it('adds limited users for signed-in callers and the caller itself when private', async () => {
    expect((await search('', as(alice))).logins).toEqual(expect.arrayContaining(['limmy']));
    expect((await search('', as(alice))).logins).not.toContain('privy');
    expect((await search('', as(priv))).logins).toEqual(expect.arrayContaining(['limmy', 'privy']));
  });

  it('shows site admins every user', async () => {
    const { logins } = await search('', adminAuth());
    expect(logins).toEqual(expect.arrayContaining(['alice', 'bob', 'limmy', 'privy', 'resty']));
  });

  it('regression: a restricted caller finds only itself, as Gitea (public users were listed)', async () => {
    const { logins, res } = await search('', as(rest));
    expect(logins).toEqual(['resty']);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it('filters by q= on the name and the full name, case-insensitively', async () => {
    expect((await search('?q=ALI')).logins).toEqual(['alice']);
    expect((await search('?q=builder')).logins).toEqual(['bob']);
    expect((await search('?q=%20%20bob%20')).logins).toEqual(['bob']);
    expect((await search('?q=lim')).logins).toEqual([]);
    expect((await search('?q=lim', as(alice))).logins).toEqual(['limmy']);
    const none = await search('?q=zzz-no-such');
    expect(none.body.data).toEqual([]);
    expect(none.res.headers.get('x-total-count')).toBe('0');
  });

  it('filters by uid=', async () => {
    expect((await search(`?uid=${bob.id}`)).logins).toEqual(['bob']);
    // A user the caller may not see is not found by id either.
    expect((await search(`?uid=${priv.id}`)).logins).toEqual([]);
    expect((await search(`?uid=${priv.id}`, adminAuth())).logins).toEqual(['privy']);
  });

  it('pages with limit= and page=, X-Total-Count and Link', async () => {
    const all = await search('', adminAuth());
    const total = all.logins.length;
    const first = await search('?limit=2', adminAuth());
    expect(first.logins).toEqual(all.logins.slice(0, 2));
    expect(first.res.headers.get('x-total-count')).toBe(String(total));
    const link = first.res.headers.get('link') ?? '';
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="last"');
    expect(link).toMatch(/[?&]limit=2/);
    const second = await search('?limit=2&page=2', adminAuth());
    expect(second.logins).toEqual(all.logins.slice(2, 4));
    expect(second.res.headers.get('link')).toContain('rel="prev"');
    const beyond = await search('?limit=2&page=99', adminAuth());
    expect(beyond.logins).toEqual([]);
    expect(beyond.res.headers.get('x-total-count')).toBe(String(total));
  });

  it('restricts a public-only token to public users', async () => {
    const token = await createToken(s, priv, ['read:user', 'public-only']);
    const { logins } = await search('', { token });
    expect(logins).not.toContain('privy');
    expect(logins).not.toContain('limmy');
    expect(logins).toContain('alice');
  });
});

describe('GET and PATCH /user/settings', () => {
  let carol: Creds;
  beforeAll(async () => { carol = await createUser(s, 'carol'); });

  it('needs a signed-in caller', async () => {
    expect((await s.request('api/v1/user/settings')).status).toBe(401);
    expect((await s.request('api/v1/user/settings', { method: 'PATCH', json: { full_name: 'x' } })).status).toBe(401);
  });

  it('answers the defaults with every UserSettings field', async () => {
    const res = await s.request('api/v1/user/settings', { auth: as(carol) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'UserSettings');
    expectAllFields(body, 'UserSettings');
    expect(body).toEqual({
      full_name: '', website: '', description: '', location: '', language: '',
      theme: s.hearth.config.ui.default_theme, diff_view_style: '', hide_email: false, hide_activity: false,
    });
  });

  it('patches each field and answers the new settings', async () => {
    const patch = {
      full_name: 'Carol Danvers', description: 'Flies around', website: 'https://carol.example.com/',
      location: 'Hala', language: 'fr-FR', theme: 'gitea-dark', hide_email: true, hide_activity: true,
      diff_view_style: 'split',
    };
    const res = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: patch });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'UserSettings');
    expect(body).toEqual(patch);
    expect(await json(await s.request('api/v1/user/settings', { auth: as(carol) }))).toEqual(patch);
  });

  it('leaves absent fields alone', async () => {
    const res = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: { location: 'Earth' } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.location).toBe('Earth');
    expect(body.full_name).toBe('Carol Danvers');
    expect(body.diff_view_style).toBe('split');
    const empty = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: {} });
    expect(empty.status).toBe(200);
    expect((await json(empty)).location).toBe('Earth');
  });

  it('shows the profile fields on the User', async () => {
    const me = await json(await s.request('api/v1/user', { auth: as(carol) }));
    expect(me).toMatchObject({
      full_name: 'Carol Danvers', description: 'Flies around', website: 'https://carol.example.com/',
      location: 'Earth', language: 'fr-FR',
    });
  });

  it('hide_email hides the address from other signed-in users, and unhides it', async () => {
    expect((await json(await s.request('api/v1/users/carol', { auth: as(alice) }))).email).toBe(noReply('carol'));
    await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: { hide_email: false } });
    expect((await json(await s.request('api/v1/users/carol', { auth: as(alice) }))).email).toBe('carol@example.com');
    expect((await json(await s.request('api/v1/users/carol'))).email).toBe(noReply('carol'));
  });

  it('clears a field with an empty string', async () => {
    const res = await s.request('api/v1/user/settings', {
      method: 'PATCH', auth: as(carol), json: { website: '', description: '' },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ website: '', description: '' });
  });

  it.each([
    ['full_name', 'x'.repeat(101)],
    ['description', 'x'.repeat(256)],
    ['location', 'x'.repeat(51)],
    ['website', 'not a url'],
    ['website', `https://example.com/${'x'.repeat(250)}`],
    ['hide_email', 'yes'],
    ['hide_activity', 1],
    ['full_name', 42],
    ['diff_view_style', 'sideways'],
  ])('answers 422 naming %s for an invalid value', async (field, value) => {
    const res = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: { [field]: value } });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['message', 'url']);
    expect(body.message).toContain(field);
  });

  it('regression: website accepts only http(s) URLs, as Gitea ValidUrl (javascript: URLs were stored)', async () => {
    for (const website of ['javascript:alert(1)', 'ftp://example.com/', 'mailto:carol@example.com']) {
      const res = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: { website } });
      expect(res.status, website).toBe(422);
    }
    const ok = await s.request('api/v1/user/settings', { method: 'PATCH', auth: as(carol), json: { website: 'http://x.example/' } });
    expect(ok.status).toBe(200);
  });

  it('writes nothing when one field is invalid', async () => {
    const before = await json(await s.request('api/v1/user/settings', { auth: as(carol) }));
    const res = await s.request('api/v1/user/settings', {
      method: 'PATCH', auth: as(carol), json: { full_name: 'Changed', website: 'nope' },
    });
    expect(res.status).toBe(422);
    expect(await json(await s.request('api/v1/user/settings', { auth: as(carol) }))).toEqual(before);
  });

  it('needs write:user to patch with a token', async () => {
    const read = await createToken(s, carol, ['read:user']);
    expect((await s.request('api/v1/user/settings', { auth: { token: read } })).status).toBe(200);
    const denied = await s.request('api/v1/user/settings', { method: 'PATCH', auth: { token: read }, json: { location: 'Mars' } });
    expect(denied.status).toBe(403);
    const write = await createToken(s, carol, ['write:user']);
    const ok = await s.request('api/v1/user/settings', { method: 'PATCH', auth: { token: write }, json: { location: 'Mars' } });
    expect(ok.status).toBe(200);
    expect((await json(ok)).location).toBe('Mars');
  });
});
