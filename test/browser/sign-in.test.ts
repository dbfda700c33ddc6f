import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, haveChromium, pathOf, startBrowser, type BrowserEnv, type Js, signInThroughForm } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { basicHeader, createUser, startTestServer } from '../helpers/server';

// The sign-in flows in a real Chromium, each with JavaScript on and off: every page they pass
// through is held to checkPage's bar.


for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`with JavaScript ${js}`, () => {
    let env: BrowserEnv;
    beforeAll(async () => { env = await startBrowser(); });
    afterAll(async () => { await env?.close(); });
    const root = () => env.server.hearth.config.server.root_url;

    it('the first admin signs in, is made to change the password, and lands on the dashboard', async () => {
      // A server of its own: its first admin's password changes here.
      const s = await startTestServer();
      try {
        const own = { ...env, server: s } as BrowserEnv;
        const at = s.hearth.config.server.root_url;
        // The password the start printed: the API takes it, the pages ask for a new one first.
        const admin = s.admin;
        expect((await s.request('api/v1/user', { auth: { basic: [admin.username, admin.password] } })).status).toBe(200);
        // An admin's flag works the same way, with its own words.
        const flagged = await createUser(s, `flagged-admin-${js}`, { admin: true, must_change_password: true });
        const page = await env.open(js);
        await page.goto(`${at}user/login`);
        await checkPage(page);
        await signInThroughForm(own, page, admin.username, admin.password);
        expect(pathOf(s, page)).toBe('user/settings/change_password');
        expect(await page.getByText('This password was printed when hearth made it').count()).toBe(1);
        await checkPage(page);
        // Any other page leads back here until it is done.
        await page.goto(`${at}explore/repos`);
        expect(pathOf(s, page)).toBe('user/settings/change_password');
        const next = `${admin.password}-new`;
        await page.getByLabel('Current password').fill(admin.password);
        await page.getByLabel('New password', { exact: true }).fill(next);
        await page.getByLabel('Confirm the new password').fill(next);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.waitForLoadState('load');
        expect(pathOf(s, page)).toBe('');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
        await checkPage(page);
        const other = await env.open(js);
        await signInThroughForm(own, other, flagged.username, flagged.password);
        expect(pathOf(s, other)).toBe('user/settings/change_password');
        expect(await other.getByText('You must change your password before going on.').count()).toBe(1);
      } finally {
        await s.stop();
      }
    });

    it('a wrong password re-renders the form (422), and the limiter answers 429 after ten', async () => {
      // A server of its own: the limiter counts this address's failures for the whole server.
      const s = await startTestServer();
      try {
        const u = await createUser(s, 'guessed');
        const page = await env.open(js);
        const own = { ...env, server: s } as BrowserEnv;
        let last = 0;
        page.on('response', (r) => { if (r.request().isNavigationRequest()) last = r.status(); });
        await signInThroughForm(own, page, 'guessed', 'wrong-password');
        expect(last).toBe(422);
        expect(await page.getByRole('alert').textContent()).toBe('The user name or password is incorrect.');
        await checkPage(page);
        for (let i = 0; i < 9; i++) await signInThroughForm(own, page, 'guessed', 'wrong-password');
        await signInThroughForm(own, page, 'guessed', u.password);
        expect(last).toBe(429);
        expect(await page.getByRole('alert').textContent()).toContain('too many failed sign-in attempts');
        await checkPage(page);
      } finally {
        await s.stop();
      }
    });

    it('signs in with the keyboard alone', async () => {
      const u = await createUser(env.server, `keys-${js}`);
      const page = await env.open(js);
      await page.goto(`${root()}user/login`);
      // The form's first field has the focus as the page opens; the keys do the rest.
      expect(await page.locator(':focus').getAttribute('name')).toBe('user_name');
      await page.keyboard.type(u.username);
      await page.keyboard.press('Tab');
      await page.keyboard.type(u.password);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await page.getByLabel('Remember this device').isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').textContent()).toBe('Sign in');
      await page.keyboard.press('Enter');
      await page.waitForURL(root());
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
      const cookie = (await page.context().cookies()).find((c) => c.name === 'hearth_session');
      expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
    });

    it('refuses a form posted without its CSRF token, and changes nothing', async () => {
      const u = await createUser(env.server, `forged-${js}`);
      const page = await env.open(js);
      await signInThroughForm(env, page, u.username, u.password);
      // The form arrives without its token (as a page of another site would post it).
      await page.route('**/user/settings/change_password', async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const res = await route.fetch();
        await route.fulfill({ response: res, body: (await res.text()).replace(/<input type="hidden" name="_csrf"[^>]*>/g, '') });
      });
      await page.goto(`${root()}user/settings/change_password`);
      await page.getByLabel('Current password').fill(u.password);
      await page.getByLabel('New password', { exact: true }).fill('never-stored-1');
      await page.getByLabel('Confirm the new password').fill('never-stored-1');
      const [res] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Change password' }).click()]);
      expect(res.status()).toBe(403);
      await page.waitForLoadState('load');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Forbidden');
      await checkPage(page);
      const still = await env.server.request('api/v1/user', { headers: { Authorization: basicHeader(u.username, u.password) } });
      expect(still.status).toBe(200);
    });

    it('shows another user\'s private repository as the same 404 as a missing one', async () => {
      const owner = await createUser(env.server, `owner-${js}`);
      await createRepo(env.server, owner, 'secret', { private: true });
      const other = await createUser(env.server, `other-${js}`);
      const page = await env.open(js);
      await signInThroughForm(env, page, other.username, other.password);
      const hidden = await page.goto(`${root()}${owner.username}/secret`);
      expect(hidden!.status()).toBe(404);
      const hiddenText = await page.locator('main').textContent();
      await checkPage(page);
      const missing = await page.goto(`${root()}${owner.username}/no-such-repo`);
      expect(missing!.status()).toBe(404);
      expect(await page.locator('main').textContent()).toBe(hiddenText);
      // The owner sees it.
      const mine = await env.open(js);
      await signInThroughForm(env, mine, owner.username, owner.password);
      expect((await mine.goto(`${root()}${owner.username}/secret`))!.status()).toBe(200);
      await checkPage(mine);
    });

    it('signs out from the account menu', async () => {
      const u = await createUser(env.server, `out-${js}`);
      const page = await env.open(js);
      await signInThroughForm(env, page, u.username, u.password);
      await page.getByLabel(`Account menu of ${u.username}`).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe('');
      expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(1);
      await checkPage(page);
      await page.goto(`${root()}user/settings/change_password`);
      expect(pathOf(env.server, page)).toMatch(/^user\/login\?redirect_to=/);
    });
  });
}
