import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// must_change_password is enforced as Gitea does: the API answers 403 with the page to change it
// at, for a password or a token, until the user changes it; the web sends every page there.

let s: TestServer;
const pw = 'first-password-1';
const as = (password: string): Auth => ({ basic: ['newbie', password] });

beforeAll(async () => {
  s = await startTestServer();
  // Created by the admin API without the flag: Gitea's default is true.
  const res = await s.request('api/v1/admin/users', {
    method: 'POST', auth: { basic: [s.admin.username, s.admin.password] },
    json: { username: 'newbie', email: 'newbie@example.com', password: pw },
  });
  expect(res.status).toBe(201);
});
afterAll(async () => { await s.stop(); });

describe('a user who must change their password', () => {
  it('gets 403 from the API, naming the page, with a password or a token', async () => {
    const res = await s.request('api/v1/user', { auth: as(pw) });
    expect(res.status).toBe(403);
    const body = await json(res) as { message: string; url: string };
    expect(body.message).toBe(`You must change your password. Change it at: ${s.hearth.config.server.root_url.replace(/\/$/, '')}/user/change_password`);
    // A token made earlier by an admin on their behalf is refused too (the check is on the user).
    await s.hearth.db.updateTable('user').set({ must_change_password: 0 }).where('lower_name', '=', 'newbie').execute();
    const made = await s.request('api/v1/users/newbie/tokens', { method: 'POST', auth: as(pw), json: { name: 'ci', scopes: ['read:user'] } });
    const { sha1 } = await json(made) as { sha1: string };
    await s.hearth.db.updateTable('user').set({ must_change_password: 1 }).where('lower_name', '=', 'newbie').execute();
    expect((await s.request('api/v1/user', { auth: { token: sha1 } })).status).toBe(403);
    // Anonymous calls and other users are not concerned.
    expect((await s.request('api/v1/version')).status).toBe(200);
    const other = await createUser(s, 'other');
    expect((await s.request('api/v1/user', { auth: { basic: [other.username, other.password] } })).status).toBe(200);
  });

  it('the page the message names leads to the form, which asks a browser to sign in first', async () => {
    const old = await s.request('user/change_password', { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toMatch(/\/user\/settings\/change_password$/);
    const anon = await s.request('user/settings/change_password', { redirect: 'manual' });
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toContain('/user/login?redirect_to=%2Fuser%2Fsettings%2Fchange_password');
    const page = await s.request('user/settings/change_password', { auth: as(pw) });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="old_password"');
    expect(html).toContain('You must change your password');
    expect(page.headers.get('content-security-policy')).toContain('form-action \'self\'');
  });

  it('is sent to the form by every page once signed in', async () => {
    const c = new WebClient(s);
    expect(await c.signIn('newbie', pw)).toMatch(/\/user\/settings\/change_password$/);
    for (const path of ['', 'explore/repos', 'newbie']) {
      const res = await c.get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location')).toMatch(/\/user\/settings\/change_password$/);
    }
  });

  it('must give the current password and the same new one twice (422, the error beside its field)', async () => {
    const c = new WebClient(s);
    await c.signIn('newbie', pw);
    const post = (fields: Record<string, string>) => c.post('user/settings/change_password', fields);
    const wrong = await post({ old_password: 'wrong', password: 'second-password-2', retype: 'second-password-2' });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toMatch(/aria-describedby="f-old_password-error"[\s\S]*id="f-old_password-error">The current password is not correct/);
    expect((await post({ old_password: pw, password: 'second-password-2', retype: 'other-password-2' })).status).toBe(422);
    expect((await post({ old_password: pw, password: 'short', retype: 'short' })).status).toBe(422);
    expect((await post({ old_password: pw, password: pw, retype: pw })).status).toBe(422);
    expect((await s.request('api/v1/user', { auth: as(pw) })).status).toBe(403);
  });

  it('uses the API again once the password is changed; the old one no longer signs in; other browsers are signed out', async () => {
    const other = new WebClient(s);
    await other.signIn('newbie', pw);
    const c = new WebClient(s);
    await c.signIn('newbie', pw);
    const res = await c.post('user/settings/change_password', { old_password: pw, password: 'second-password-2', retype: 'second-password-2' });
    expect(res.status).toBe(303);
    const home = await c.get('');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Dashboard');
    // The other browser's session ended with the change.
    expect((await other.get('user/settings/change_password')).status).toBe(303);
    const me = await s.request('api/v1/user', { auth: as('second-password-2') });
    expect(me.status).toBe(200);
    expect((await json(me) as { login: string }).login).toBe('newbie');
    expect((await s.request('api/v1/user', { auth: as(pw) })).status).toBe(401);
  });
});
