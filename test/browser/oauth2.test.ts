import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, haveChromium, pathOf, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createOAuthApp, type OAuthApp } from '../helpers/oauth2';
import { startTestClient, type TestClient } from '../helpers/oauth2-client';
import { createUser } from '../helpers/server';

// "Sign in with hearth" in a real Chromium: a public client on another loopback port (a page
// whose script does PKCE with JavaScript on; its server does it with JavaScript off) sends the
// browser to hearth, which asks it to sign in, shows the consent page, and sends it back with a
// code; the client exchanges the code and calls the API with the token. The client registered
// http://127.0.0.1/cb: any loopback port is its (RFC 8252), and the consent page's CSP lets
// its form lead there.

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`OAuth2 sign-in with JavaScript ${js}`, () => {
    let env: BrowserEnv;
    let client: TestClient;
    let app: OAuthApp;
    beforeAll(async () => {
      env = await startBrowser();
      const root = env.server.hearth.config.server.root_url;
      client = await startTestClient(root, () => app.client_id, js === 'on' ? 'script' : 'server');
      const owner = await createUser(env.server, `clientowner-${js}`);
      app = await createOAuthApp(env.server, owner, { name: 'Loopback Client', redirectUris: ['http://127.0.0.1/cb'], confidential: false });
    });
    afterAll(async () => {
      await client?.close();
      await env?.close();
    });

    it('signs in through the consent page with PKCE, then calls the API with the token', async () => {
      const u = await createUser(env.server, `signer-${js}`);
      const page = await env.open(js);
      await page.goto(client.url);
      if (js === 'on') await page.getByRole('button', { name: 'Sign in with hearth' }).click();
      else await page.getByRole('link', { name: 'Sign in with hearth' }).click();
      await page.waitForURL(/\/user\/login\?redirect_to=/);
      await checkPage(page);
      await page.getByLabel('User name or e-mail address').fill(u.username);
      await page.getByLabel('Password', { exact: true }).fill(u.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/login\/oauth\/authorize\?/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Authorize Loopback Client');
      expect(await page.getByText('Read user').count()).toBe(1);
      await checkPage(page);
      await page.getByRole('button', { name: 'Authorize application' }).click();
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/cb\?/);
      const status = page.locator('#status');
      await expect.poll(() => status.textContent()).toBe(`Signed in as ${u.username}`);
      const token = (await status.getAttribute('data-token'))!;
      expect((await env.server.request('api/v1/user', { auth: { token, as: 'bearer' } })).status).toBe(200);
      // The grant's scope (read:user) limits it.
      expect((await env.server.request('api/v1/user/repos', { method: 'POST', auth: { token, as: 'bearer' }, json: { name: 'x' } })).status).toBe(403);
      // The authorization is listed in the settings, and revoking it ends the token.
      await page.goto(`${env.server.hearth.config.server.root_url}user/settings/applications`);
      await page.getByRole('link', { name: 'Revoke Loopback Client' }).click();
      await page.waitForLoadState('load');
      await checkPage(page);
      await page.getByRole('button', { name: 'Revoke access' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe('user/settings/applications?done=grant-revoked#grants');
      expect((await env.server.request('api/v1/user', { auth: { token, as: 'bearer' } })).status).toBe(401);
    });

    it('sends a refusal back to the client as access_denied', async () => {
      const u = await createUser(env.server, `refuser-${js}`);
      const page = await env.open(js);
      await page.goto(client.url);
      if (js === 'on') await page.getByRole('button', { name: 'Sign in with hearth' }).click();
      else await page.getByRole('link', { name: 'Sign in with hearth' }).click();
      await page.waitForURL(/\/user\/login\?redirect_to=/);
      await page.getByLabel('User name or e-mail address').fill(u.username);
      await page.getByLabel('Password', { exact: true }).fill(u.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/login\/oauth\/authorize\?/);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/cb\?/);
      await expect.poll(() => page.locator('#status').textContent()).toBe('Error: access_denied');
    });
  });
}
