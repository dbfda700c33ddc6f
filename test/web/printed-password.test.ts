import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// The first admin's password is printed by the start: scripts (API, git, Basic on pages) use it
// as it is, while a browser is asked for a password of the user's own before anything else.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.stop(); });

describe('the printed password of the first admin', () => {
  it('works for scripts; a browser session must replace it first, then it is gone', async () => {
    const { username, password } = s.admin;
    const basic = { basic: [username, password] as [string, string] };
    expect((await s.request('api/v1/user', { auth: basic })).status).toBe(200);
    expect((await s.request('explore/repos', { auth: basic })).status).toBe(200);

    const browser = new WebClient(s);
    expect(await browser.signIn(username, password)).toMatch(/\/user\/settings\/change_password$/);
    const held = await browser.get('explore/repos');
    expect(held.status).toBe(303);
    expect(held.headers.get('location')).toMatch(/\/user\/settings\/change_password$/);
    expect(await (await browser.get('user/settings/change_password')).text()).toContain('This password was printed when hearth made it');

    const changed = await browser.post('user/settings/change_password', { old_password: password, password: `${password}-mine`, retype: `${password}-mine` });
    expect(changed.status).toBe(303);
    expect((await browser.get('explore/repos')).status).toBe(200);
    const row = await s.hearth.db.selectFrom('user').select(['password_printed', 'must_change_password']).where('name', '=', username).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_printed: 0, must_change_password: 0 });
    expect((await s.request('api/v1/user', { auth: basic })).status).toBe(401);
  });

  it('is gone once an admin sets a new password through the API', async () => {
    const own = await startTestServer();
    try {
      const { username, password } = own.admin;
      const fresh = `${password}-set`;
      const set = await own.request(`api/v1/admin/users/${username}`, {
        method: 'PATCH', auth: { basic: [username, password] }, json: { login_name: username, source_id: 0, password: fresh },
      });
      expect(set.status).toBe(200);
      const browser = new WebClient(own);
      expect(await browser.signIn(username, fresh)).not.toMatch(/change_password$/);
      expect((await browser.get('explore/repos')).status).toBe(200);
    } finally { await own.stop(); }
  });
});
