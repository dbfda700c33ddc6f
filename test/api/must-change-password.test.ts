import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';

// must_change_password is enforced as Gitea does: the API answers 403 with the page to change it
// at, for a password or a token, until the user changes it at /user/change_password.

let s: TestServer;
const pw = 'first-password-1';
const as = (password: string): Auth => ({ basic: ['newbie', password] });
const form = (fields: Record<string, string>, auth: Auth = as(pw)) => s.request('user/change_password', {
  method: 'POST', auth, body: new URLSearchParams(fields).toString(),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
});

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

  it('is shown the form (and 401 without credentials, so a browser asks)', async () => {
    const anon = await s.request('user/change_password');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Basic/);
    const page = await s.request('user/change_password', { auth: as(pw) });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="old_password"');
    expect(html).toContain('You must change your password');
    expect(page.headers.get('content-security-policy')).toContain('form-action \'self\'');
  });

  it('must give the current password and the same new one twice', async () => {
    expect((await form({ old_password: 'wrong', password: 'second-password-2', retype: 'second-password-2' })).status).toBe(400);
    expect((await form({ old_password: pw, password: 'second-password-2', retype: 'other-password-2' })).status).toBe(400);
    expect((await form({ old_password: pw, password: 'short', retype: 'short' })).status).toBe(400);
    expect((await form({ old_password: pw, password: pw, retype: pw })).status).toBe(400);
    expect((await s.request('api/v1/user', { auth: as(pw) })).status).toBe(403);
  });

  it('uses the API again once the password is changed; the old one no longer signs in', async () => {
    const res = await form({ old_password: pw, password: 'second-password-2', retype: 'second-password-2' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Password changed');
    const me = await s.request('api/v1/user', { auth: as('second-password-2') });
    expect(me.status).toBe(200);
    expect((await json(me) as { login: string }).login).toBe('newbie');
    expect((await s.request('api/v1/user', { auth: as(pw) })).status).toBe(401);
  });
});
