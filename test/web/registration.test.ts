import { describe, expect, it } from 'vitest';
import { createUser, startTestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// [service] disable_registration (true by default, unlike Gitea) and require_signin_view.

describe('registration', () => {
  it('is closed by default: /user/sign_up is a 404 and the pages offer no link to it', async () => {
    const s = await startTestServer();
    try {
      expect((await s.request('user/sign_up')).status).toBe(404);
      expect(await (await s.request('user/login')).text()).not.toContain('sign_up');
      const c = new WebClient(s);
      expect((await c.post('user/sign_up', { user_name: 'x', email: 'x@example.com', password: 'long-enough-1', retype: 'long-enough-1' }, { from: 'user/login' })).status).toBe(404);
      expect(await s.hearth.db.selectFrom('user').select('id').where('lower_name', '=', 'x').executeTakeFirst()).toBeUndefined();
    } finally { await s.stop(); }
  });

  it('when open, makes the account through the user service and signs it in; errors stay beside their fields', async () => {
    const s = await startTestServer({ HEARTH__SERVICE__DISABLE_REGISTRATION: 'false' });
    try {
      await createUser(s, 'taken');
      const c = new WebClient(s);
      const form = { user_name: 'newcomer', email: 'newcomer@example.com', password: 'long-enough-1', retype: 'long-enough-1' };
      const mismatch = await c.post('user/sign_up', { ...form, retype: 'other' });
      expect(mismatch.status).toBe(422);
      const html = await mismatch.text();
      expect(html).toContain('id="f-retype-error"');
      expect(html).toContain('value="newcomer@example.com"');
      const taken = await c.post('user/sign_up', { ...form, user_name: 'taken' });
      expect(taken.status).toBe(422);
      expect(await taken.text()).toMatch(/id="f-user_name-error">user already exists/);
      const made = await c.post('user/sign_up', form);
      expect(made.status).toBe(303);
      expect(await (await c.get('')).text()).toContain('Signed in as <a');
      const api = await s.request('api/v1/user', { auth: { basic: ['newcomer', 'long-enough-1'] } });
      expect(api.status).toBe(200);
    } finally { await s.stop(); }
  });
});

describe('require_signin_view', () => {
  it('sends every page but signing in (and the assets) to the sign-in form', async () => {
    const s = await startTestServer({ HEARTH__SERVICE__REQUIRE_SIGNIN_VIEW: 'true' });
    try {
      const u = await createUser(s, 'viewer');
      for (const path of ['', 'explore/repos', 'viewer', 'viewer/repo/issues']) {
        const res = await s.request(path, { redirect: 'manual' });
        expect(res.status, path).toBe(303);
        expect(res.headers.get('location')).toContain('/user/login');
      }
      const login = await s.request('user/login');
      expect(login.status).toBe(200);
      const css = /href="([^"]+\.css)"/.exec(await login.text())![1]!;
      expect((await fetch(css)).status).toBe(200);
      const c = new WebClient(s);
      await c.signIn('viewer', u.password);
      expect((await c.get('explore/repos')).status).toBe(200);
    } finally { await s.stop(); }
  });
});
