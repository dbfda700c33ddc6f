import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createUser } from '../helpers/server';

// The account settings in a real Chromium, with JavaScript on and off: every settings page
// held to checkPage's bar, a token made and used, an SSH key added, the password changed
// (the other browser signed out), and one form done with the keyboard alone.

const run = promisify(execFile);

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`account settings with JavaScript ${js}`, () => {
    let env: BrowserEnv;
    beforeAll(async () => { env = await startBrowser(); });
    afterAll(async () => { await env?.close(); });
    const root = () => env.server.hearth.config.server.root_url;

    const signedIn = async (name: string) => {
      const u = await createUser(env.server, `${name}-${js}`);
      const page = await env.open(js);
      await signInThroughForm(env, page, u.username, u.password);
      return { u, page };
    };

    it('every settings page passes the checks', async () => {
      const { page } = await signedIn('tour');
      for (const p of ['user/settings', 'user/settings/account', 'user/settings/appearance', 'user/settings/sessions', 'user/settings/keys', 'user/settings/applications', 'user/settings/account/delete']) {
        const res = await page.goto(`${root()}${p}`);
        expect(res!.status(), p).toBe(200);
        await checkPage(page);
      }
      // In the dark theme as the user set it, with a validation error on the page.
      await page.goto(`${root()}user/settings/appearance`);
      await page.getByLabel('Dark', { exact: true }).check();
      await page.getByRole('button', { name: 'Save appearance' }).click();
      await page.waitForLoadState('load');
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
      expect(await page.getByRole('status').textContent()).toBe('Your appearance settings have been saved.');
      await checkPage(page);
      await page.goto(`${root()}user/settings`);
      await page.getByLabel('Website').fill('ftp://nowhere');
      await page.getByRole('button', { name: 'Update profile' }).click();
      await page.waitForLoadState('load');
      expect(await page.getByText('The website must be an http or https URL.').count()).toBe(1);
      await checkPage(page);
    });

    it('creates a token, shown once, and calls the API with it', async () => {
      const { u, page } = await signedIn('token');
      await page.goto(`${root()}user/settings/applications`);
      await page.getByLabel('Token name').fill('deploy');
      await page.getByLabel('Read Repositories').check();
      await page.getByLabel('Read and write User').check();
      await page.getByRole('button', { name: 'Generate token' }).click();
      await page.waitForLoadState('load');
      const token = (await page.locator('#new-token').textContent())!;
      expect(token).toMatch(/^[0-9a-f]{40}$/);
      if (js === 'on') expect(await page.getByRole('button', { name: 'Copy' }).first().isVisible()).toBe(true);
      await checkPage(page);
      const me = await env.server.request('api/v1/user', { auth: { token } });
      expect(((await me.json()) as { login: string }).login).toBe(u.username);
      await page.goto(`${root()}user/settings/applications`);
      expect(await page.content()).not.toContain(token);
      await page.getByRole('link', { name: 'Delete token deploy' }).click();
      await page.waitForLoadState('load');
      await checkPage(page);
      await page.getByRole('button', { name: 'Delete token' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe('user/settings/applications?done=token-deleted#tokens');
      expect((await env.server.request('api/v1/user', { auth: { token } })).status).toBe(401);
    });

    it('creates an OAuth2 application (secret shown once), edits it and regenerates its secret', async () => {
      const { page } = await signedIn('app');
      await page.goto(`${root()}user/settings/applications`);
      await page.getByLabel('Application name').fill('Static site CMS');
      await page.getByLabel('Redirect URIs').fill('https://cms.example/callback');
      await page.getByRole('button', { name: 'Create application' }).click();
      await page.waitForLoadState('load');
      const secret = (await page.locator('#client-secret').textContent())!;
      expect(secret).toMatch(/^gto_[a-z2-7]+$/);
      await checkPage(page);
      await page.getByLabel('Redirect URIs').fill('https://cms.example/callback\nhttp://127.0.0.1/callback');
      await page.getByRole('checkbox', { name: /Confidential client/ }).uncheck();
      await page.getByRole('button', { name: 'Save application' }).click();
      await page.waitForLoadState('load');
      expect(await page.getByRole('status').textContent()).toBe('The application has been updated.');
      expect(await page.getByRole('checkbox', { name: /Confidential client/ }).isChecked()).toBe(false);
      await checkPage(page);
      await page.getByRole('link', { name: 'Regenerate secret' }).click();
      await page.waitForLoadState('load');
      await checkPage(page);
      await page.getByRole('button', { name: 'Regenerate secret' }).click();
      await page.waitForLoadState('load');
      const fresh = (await page.locator('#client-secret').textContent())!;
      expect(fresh).not.toBe(secret);
    });

    it('adds an SSH key', async () => {
      const { page } = await signedIn('ssh');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-browser-ssh-'));
      try {
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'browser', '-f', path.join(dir, 'k')]);
        await page.goto(`${root()}user/settings/keys`);
        await page.getByLabel('Key name').fill('workstation');
        await page.getByLabel('Public key', { exact: true }).fill(fs.readFileSync(path.join(dir, 'k.pub'), 'utf8'));
        await page.getByRole('button', { name: 'Add SSH key' }).click();
        await page.waitForLoadState('load');
        expect(pathOf(env.server, page)).toBe('user/settings/keys?done=ssh-added#ssh');
        expect(await page.getByText('workstation', { exact: true }).count()).toBe(1);
        await checkPage(page);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('changes the password: the other browser is signed out', async () => {
      const { u, page } = await signedIn('pw');
      const other = await env.open(js);
      await signInThroughForm(env, other, u.username, u.password);
      await page.goto(`${root()}user/settings/account`);
      await page.getByLabel('Current password').fill(u.password);
      await page.getByLabel('New password', { exact: true }).fill('a-browser-password-2');
      await page.getByLabel('Confirm the new password').fill('a-browser-password-2');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe('user/settings/account?done=password#password');
      await checkPage(page);
      await other.goto(`${root()}user/settings`);
      expect(pathOf(env.server, other)).toMatch(/^user\/login\?redirect_to=/);
      await page.goto(`${root()}user/settings/sessions`);
      expect(await page.locator('.settings-body li').count()).toBe(1);
      await checkPage(page);
    });

    it('fills a settings form with the keyboard alone', async () => {
      const { u, page } = await signedIn('keys');
      await page.goto(`${root()}user/settings`);
      await page.getByLabel('Full name').focus();
      await page.keyboard.type('Keyboard User');
      await page.keyboard.press('Tab');
      await page.keyboard.type('https://keys.example');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Kyiv');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Types everything.');
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').getAttribute('value')).toBe('public');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByLabel('Limited').isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await page.getByLabel('Hide my e-mail address from others').isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').textContent()).toBe('Update profile');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${root()}user/settings?done=profile`);
      const me = await (await env.server.request('api/v1/user', { auth: { basic: [u.username, u.password] } })).json() as Record<string, unknown>;
      expect(me).toMatchObject({ full_name: 'Keyboard User', website: 'https://keys.example', location: 'Kyiv', description: 'Types everything.', visibility: 'limited' });
    });
  });
}
