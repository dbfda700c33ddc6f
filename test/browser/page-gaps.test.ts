import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { as, createUser, ok } from '../helpers/server';
import { createSiteAdmin } from '../helpers/site-admin';

// The small additions to the settings and administration pages in a real Chromium, with
// JavaScript on and off, one server for the file: an admin renames an account (a taken name
// refused beside the field first), walks the explore tabs and keeps a webhook's "All events";
// a transfer's answerer (here a site admin) follows the banner on the repository to the transfer page; a team's
// form refuses a member that does not exist beside the field. Every page is held to checkPage.
// (40 to 75 s for the file on the shared 2-core box, by its load.)

let env: BrowserEnv;

beforeAll(async () => {
  if (!haveChromium) return;
  env = await startBrowser({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
}, 60_000);
afterAll(async () => { await env?.close(); });

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`page gaps with JavaScript ${js}`, () => {
    let page: Page;
    const root = () => env.server.hearth.config.server.root_url;
    const load = () => page.waitForLoadState('load');
    const go = async (p: string) => { await page.goto(`${root()}${p}`); await checkPage(page); };
    const submit = async (name: string) => { await page.getByRole('button', { name, exact: true }).click(); await load(); };

    beforeAll(async () => {
      const boss = await createSiteAdmin(env.server, `gaps-boss-${js}`);
      page = await env.open(js);
      await signInThroughForm(env, page, boss.username, boss.password);
    });

    it('renames an account, walks the explore tabs and keeps a hook\'s "All events"', async () => {
      await createUser(env.server, `old-${js}`);
      await go(`-/admin/users/old-${js}`);
      await page.getByLabel('Username', { exact: true }).fill(`gaps-boss-${js}`);
      await submit('Rename user account');
      expect(await page.locator('#f-new_username-error').textContent()).toContain('user already exists');
      await checkPage(page);
      await page.getByLabel('Username', { exact: true }).fill(`new-${js}`);
      await submit('Rename user account');
      expect(pathOf(env.server, page)).toBe(`-/admin/users/new-${js}?done=user-renamed#rename`);
      await checkPage(page);

      await go('explore/repos');
      await page.getByRole('navigation', { name: 'Explore' }).getByRole('link', { name: 'Users' }).click();
      await load();
      expect(await page.locator('nav[aria-label="Explore"] [aria-current="page"]').textContent()).toBe('Users');
      await checkPage(page);

      await go('-/admin/hooks/new');
      await page.getByLabel('Target URL').fill(`http://127.0.0.1:9/${js}`);
      await page.getByRole('radio', { name: 'All events' }).check();
      await submit('Add webhook');
      expect(await page.getByRole('radio', { name: 'All events' }).isChecked()).toBe(true);
      await checkPage(page);
    });

    it("leads a transfer's recipient from the repository to the transfer, and refuses a missing team member beside the field", async () => {
      const sender = await createUser(env.server, `sender-${js}`);
      await createUser(env.server, `taker-${js}`);
      await createRepo(env.server, sender, 'parcel', { auto_init: true });
      await ok(await env.server.request('api/v1/orgs', { method: 'POST', auth: as(sender), json: { username: `crew-${js}` } }), 201);
      // Pending: the sender may not create repositories of the recipient's; a site admin may answer it.
      await ok(await env.server.request(`api/v1/repos/${sender.username}/parcel/transfer`, { method: 'POST', auth: as(sender), json: { new_owner: `taker-${js}` } }), 201);
      await go(`${sender.username}/parcel`);
      await page.getByRole('link', { name: 'Accept or reject the transfer' }).click();
      await load();
      expect(pathOf(env.server, page)).toBe(`${sender.username}/parcel/transfer`);
      await checkPage(page);

      await go(`org/crew-${js}/teams/owners/edit`);
      await page.getByLabel('Add a member (user name)').fill('nobody-here');
      await submit('Add member');
      expect(await page.locator('#f-uname-error').textContent()).toContain('There is no user of that name.');
      await checkPage(page);
    });
  });
}
