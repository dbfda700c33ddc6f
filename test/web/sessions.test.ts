import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// Browser sessions: server-side rows found by the hash of the cookie's id, a new id at each
// sign-in, the cookie's attributes, remember-this-device, sign-out, and users who may no
// longer sign in refused at their next request.

let s: TestServer;
const sessionRows = (uid: number) => s.hearth.db.selectFrom('web_session').selectAll().where('uid', '=', uid).execute();

beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.stop(); });

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site and stores only its hash', async () => {
    const u = await createUser(s, 'sam');
    const c = new WebClient(s);
    const token = await c.csrfOf('user/login');
    const res = await c.post('user/login', { user_name: 'sam', password: u.password }, { csrf: token });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(s.hearth.config.server.root_url);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('hearth_session='))!;
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
    const id = c.cookies.get('hearth_session')!;
    const rows = await sessionRows(u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).not.toContain(id);
    expect(JSON.stringify(rows)).not.toContain(id);
    // Without "remember": a browser-session cookie, the row ending after a day idle.
    expect(cookie).not.toContain('Max-Age');
    expect(rows[0]!.expires_unix - rows[0]!.created_unix).toBe(24 * 3600);
    const home = await c.get('');
    expect(await home.text()).toContain('Dashboard');
  });

  it('accepts the e-mail address, keeps 30 days with "remember this device", and makes a new id at each sign-in', async () => {
    const u = await createUser(s, 'rem');
    const c = new WebClient(s);
    await c.signIn('rem@example.com', u.password, { remember: 'on' });
    const first = c.cookies.get('hearth_session');
    const [row] = await sessionRows(u.id);
    expect(row!.expires_unix - row!.created_unix).toBe(30 * 24 * 3600);
    // Signed in, /user/login moves on: the form is posted from the dashboard's token.
    expect((await c.get('user/login')).status).toBe(303);
    await c.post('user/login', { user_name: 'rem', password: u.password }, { from: '' });
    expect(c.cookies.get('hearth_session')).not.toBe(first);
    // The old session ended with the new sign-in of the same browser.
    expect(await sessionRows(u.id)).toHaveLength(1);
  });

  it('goes back to a local redirect_to, never to another site', async () => {
    const u = await createUser(s, 'redir');
    const go = async (to: string) => {
      const c = new WebClient(s);
      return c.signIn('redir', u.password, { redirect_to: to });
    };
    const root = s.hearth.config.server.root_url;
    expect(await go('/explore/repos?q=x')).toBe(`${root}explore/repos?q=x`);
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) expect(await go(evil)).toBe(root);
  });

  it('sends a browser without a session from a signed-in page to sign in, and back after', async () => {
    const u = await createUser(s, 'back');
    const c = new WebClient(s);
    const res = await c.get('user/settings/change_password');
    expect(res.status).toBe(303);
    const login = res.headers.get('location')!;
    expect(login).toBe(`${s.hearth.config.server.root_url}user/login?redirect_to=%2Fuser%2Fsettings%2Fchange_password`);
    const form = await (await c.get(login)).text();
    expect(form).toContain('name="redirect_to" value="/user/settings/change_password"');
    expect(await c.signIn('back', u.password, { redirect_to: '/user/settings/change_password' })).toMatch(/\/user\/settings\/change_password$/);
  });

  it('answers a wrong password and an unknown user with the same message (422), and records both', async () => {
    await createUser(s, 'known');
    const c = new WebClient(s);
    const wrong = await c.post('user/login', { user_name: 'known', password: 'not-it' });
    const unknown = await c.post('user/login', { user_name: 'nobody-here', password: 'not-it' });
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    const msg = (html: string) => /role="alert">([^<]+)</.exec(html)?.[1];
    const [a, b] = [msg(await wrong.text()), msg(await unknown.text())];
    expect(a).toBe('The user name or password is incorrect.');
    expect(b).toBe(a);
    const failures = await s.hearth.db.selectFrom('audit_log').select('target_name').where('operation_type', '=', 'user.signin.failure').execute();
    expect(failures.map((f) => f.target_name)).toEqual(expect.arrayContaining(['known', 'nobody-here']));
  });

  it('re-renders an empty form with 422, the errors beside their fields and the name kept', async () => {
    const c = new WebClient(s);
    const res = await c.post('user/login', { user_name: 'keep-me', password: '' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('value="keep-me"');
    expect(html).toMatch(/id="f-password"[^>]*aria-describedby="f-password-error"/);
  });
});

describe('signing out and losing the right to sign in', () => {
  it('POST /user/logout ends the session (GET changes nothing)', async () => {
    const u = await createUser(s, 'leaver');
    const c = new WebClient(s);
    await c.signIn('leaver', u.password);
    expect((await c.get('user/logout')).status).toBe(404);
    expect(await sessionRows(u.id)).toHaveLength(1);
    const token = await c.csrfOf('');
    const res = await c.post('user/logout', {}, { csrf: token });
    expect(res.status).toBe(303);
    expect(await sessionRows(u.id)).toHaveLength(0);
    expect(c.cookies.has('hearth_session')).toBe(false);
  });

  it('refuses a user made prohibit-login or inactive at their next request', async () => {
    for (const flag of ['prohibit_login', 'active'] as const) {
      const u = await createUser(s, `flag-${flag.replace('_', '-')}`);
      await createRepo(s, u, 'hidden', { private: true });
      const c = new WebClient(s);
      await c.signIn(u.username, u.password);
      expect((await c.get(`${u.username}/hidden`)).status).toBe(200);
      const patch = flag === 'active' ? { active: false } : { prohibit_login: true };
      const res = await s.request(`api/v1/admin/users/${u.username}`, { method: 'PATCH', auth: { basic: [s.admin.username, s.admin.password] }, json: { login_name: u.username, source_id: 0, ...patch } });
      expect(res.status).toBe(200);
      expect((await c.get(`${u.username}/hidden`)).status).toBe(404);
      expect(await sessionRows(u.id)).toHaveLength(0);
      const again = await c.post('user/login', { user_name: u.username, password: u.password });
      expect(again.status).toBe(403);
    }
  });

  it('a cookie that is not valid percent-encoding is no session, not an error', async () => {
    const u = await createUser(s, 'oddcookie');
    const c = new WebClient(s);
    await c.signIn('oddcookie', u.password);
    const session = c.cookies.get('hearth_session')!;
    const page = (cookie: string) => fetch(c.url('user/settings/change_password'), { headers: { Cookie: cookie }, redirect: 'manual' });
    // The real session, beside other cookies and spaces, still signs in.
    expect((await page(`other=1; hearth_session=${session} ;x=%41`)).status).toBe(200);
    // A malformed value of either of our cookies: signed out (303 to sign in), never a 500.
    expect((await page('hearth_session=%E0%A4%A')).status).toBe(303);
    const login = await fetch(c.url('user/login'), { headers: { Cookie: 'hearth_csrf=%zz' } });
    expect(login.status).toBe(200);
    expect(await login.text()).toMatch(/name="_csrf" value="[^"]+"/);
  });

  it('an expired session is no session', async () => {
    const u = await createUser(s, 'stale');
    const c = new WebClient(s);
    await c.signIn('stale', u.password);
    await s.hearth.db.updateTable('web_session').set({ expires_unix: 1 }).where('uid', '=', u.id).execute();
    expect((await c.get('user/settings/change_password')).status).toBe(303);
  });
});

describe('under an https root_url', () => {
  it('names the cookies __Host- and marks them Secure', async () => {
    const h = await startTestServer({ HEARTH__SERVER__ROOT_URL: 'https://hearth.test/' });
    try {
      const res = await fetch(`${h.url.replace(/\/?$/, '/')}user/login`);
      const cookie = res.headers.getSetCookie().find((l) => l.includes('hearth_csrf'))!;
      expect(cookie).toMatch(/^__Host-hearth_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await h.stop();
    }
  });
});

describe('the sessions service', () => {
  it('lists a user\'s live sessions and ends one only for its owner', async () => {
    const { listSessions, revokeSession } = await import('../../src/services/user/sessions');
    const u = await createUser(s, 'lister');
    await createUser(s, 'lister2');
    const [a, b] = [new WebClient(s), new WebClient(s)];
    await a.signIn('lister', u.password);
    await b.signIn('lister', u.password);
    const db = s.hearth.db;
    const row = (name: string) => db.selectFrom('user').selectAll().where('lower_name', '=', name).executeTakeFirstOrThrow();
    const mine = await listSessions(db, await row('lister'));
    expect(mine).toHaveLength(2);
    expect(mine[0]!.user_agent).toBeTypeOf('string');
    expect(mine[0]!.ip).toBe('127.0.0.1');
    await expect(revokeSession(db, await row('lister2'), mine[0]!.id)).rejects.toThrow();
    await revokeSession(db, await row('lister'), mine[0]!.id);
    expect(await listSessions(db, await row('lister'))).toHaveLength(1);
  });

  it('writes `last seen` at most once a minute', async () => {
    const u = await createUser(s, 'seen');
    const c = new WebClient(s);
    await c.signIn('seen', u.password);
    const now = Math.floor(Date.now() / 1000);
    const set = (ago: number) => s.hearth.db.updateTable('web_session').set({ last_seen_unix: now - ago }).where('uid', '=', u.id).execute();
    const seen = async () => (await sessionRows(u.id))[0]!.last_seen_unix;
    await set(30);
    await c.get('');
    expect(await seen()).toBe(now - 30);
    await set(120);
    await c.get('');
    expect(await seen()).toBeGreaterThanOrEqual(now);
  });
});
