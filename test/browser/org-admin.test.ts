import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { createSiteAdmin } from '../helpers/site-admin';

// Organizations, site administration, explore and the migration form in a real Chromium, with
// JavaScript on and off, one server (and one source hearth to migrate from) for the file: an
// admin creates a user who must change the password, who signs in and is made to; an
// organization with a team that gets a repository; a cron task run from the dashboard with its
// last run; a migration through the form with its progress page; explore users. Every page on
// the way is held to checkPage.

let env: BrowserEnv;
let src: TestServer;

beforeAll(async () => {
  if (!haveChromium) return;
  env = await startBrowser({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  src = await startTestServer();
  const origin = await createUser(src, 'origin');
  await createRepo(src, origin, 'tool', { auto_init: true });
}, 60_000);
afterAll(async () => { await env?.close(); await src?.stop(); });

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`organizations and site administration with JavaScript ${js}`, () => {
    let page: Page;
    const root = () => env.server.hearth.config.server.root_url;
    const load = () => page.waitForLoadState('load');
    const go = async (p: string) => { await page.goto(`${root()}${p}`); await checkPage(page); };
    const submit = async (name: string) => { await page.getByRole('button', { name, exact: true }).click(); await load(); };
    /** Reloads (as the page's own Refresh would) until the text shows; no fixed sleeps. */
    const reloadUntil = async (text: string) => {
      for (let i = 0; i < 100 && !(await page.content()).includes(text); i++) {
        await page.waitForTimeout(200);
        await page.reload();
      }
      expect(await page.content()).toContain(text);
    };

    beforeAll(async () => {
      const boss = await createSiteAdmin(env.server, `boss-${js}`);
      page = await env.open(js);
      await signInThroughForm(env, page, boss.username, boss.password);
    });

    it('creates a user who must change the password, and that user is made to', async () => {
      await go('-/admin/users');
      await page.getByRole('link', { name: 'Create user account' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Username').fill(`newbie-${js}`);
      await page.getByLabel('E-mail address').fill(`newbie-${js}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('first-password-1');
      expect(await page.getByLabel('Require the user to change the password at first sign-in').isChecked()).toBe(true);
      await submit('Create user account');
      expect(pathOf(env.server, page)).toBe(`-/admin/users/newbie-${js}?done=user-created`);
      await checkPage(page);
      const user = await env.open(js);
      await signInThroughForm(env, user, `newbie-${js}`, 'first-password-1');
      expect(pathOf(env.server, user)).toBe('user/settings/change_password');
      await checkPage(user);
      await user.getByLabel('Current password').fill('first-password-1');
      await user.getByLabel('New password', { exact: true }).fill('second-password-2');
      await user.getByLabel('Confirm the new password').fill('second-password-2');
      await user.getByRole('button', { name: 'Change password' }).click();
      await user.waitForLoadState('load');
      expect(pathOf(env.server, user)).toBe('');
      await user.context().close();
    });

    it('runs a cron task from the dashboard and shows its last run', async () => {
      await go('-/admin');
      const cells = page.locator('#cron-deleted_branches_cleanup td');
      const runsBefore = Number(await cells.nth(4).textContent());
      await page.getByRole('button', { name: 'Run now deleted_branches_cleanup' }).click();
      await load();
      expect(pathOf(env.server, page)).toBe('-/admin?done=cron-started#cron');
      // The row itself, not any finished task: with JavaScript off and on the server is one, so
      // this task's earlier run shows finished while the new one still runs.
      const done = async () => Number(await cells.nth(4).textContent()) > runsBefore && /finished/.test((await cells.nth(5).textContent()) ?? '');
      for (let i = 0; i < 100 && !(await done()); i++) {
        await page.waitForTimeout(200);
        await page.reload();
      }
      expect(await cells.nth(5).textContent()).toContain('finished');
      expect(Number(await cells.nth(4).textContent())).toBe(runsBefore + 1);
      await checkPage(page);
      // The other administration pages, as they stand.
      for (const p of ['-/admin/orgs', '-/admin/emails', '-/admin/repos', '-/admin/repos/unadopted', '-/admin/hooks/new', '-/admin/audit-logs', '-/admin/config']) await go(p);
    });

    it('creates an organization, a team, and gives the team a repository', async () => {
      await go('org/create');
      await page.getByLabel('Organization name').fill(`guild-${js}`);
      await submit('Create organization');
      expect(pathOf(env.server, page)).toBe(`guild-${js}`);
      await checkPage(page);
      const boss = { username: `boss-${js}`, password: `pw-boss-${js}-secret` };
      await ok(await env.server.request(`api/v1/orgs/guild-${js}/repos`, { method: 'POST', auth: as(boss), json: { name: 'forge' } }), 201);
      await go(`org/guild-${js}/settings`);
      await page.getByRole('link', { name: 'New team' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Team name').fill('smiths');
      await page.getByLabel('Code').selectOption('write');
      await submit('Create team');
      expect(pathOf(env.server, page)).toBe(`org/guild-${js}/teams/smiths/edit`);
      await page.getByLabel('Add a repository (name)').fill('forge');
      await submit('Add repository');
      expect(pathOf(env.server, page)).toBe(`org/guild-${js}/teams/smiths/edit#repos`);
      expect(await page.getByRole('button', { name: 'Remove forge' }).count()).toBe(1);
      await checkPage(page);
      for (const p of ['', '/hooks/new', '/labels', '/blocked_users', '/actions/secrets', '/actions/variables']) await go(`org/guild-${js}/settings${p}`);
      await go(`org/guild-${js}/teams/smiths`);
      expect(await page.getByRole('link', { name: `guild-${js}/forge` }).count()).toBe(1);
    });

    it('migrates a repository from another hearth through the form, with its progress page', async () => {
      await go('repo/migrate');
      await page.getByLabel('Migrate from').selectOption('gitea');
      await page.getByLabel('Clone address (URL)').fill(`${src.hearth.config.server.root_url}origin/tool`);
      await page.getByLabel('Repository name').fill(`tool-${js}`);
      await submit('Migrate repository');
      expect(pathOf(env.server, page)).toBe(`repo/migrate/boss-${js}/tool-${js}`);
      await reloadUntil('The migration has finished.');
      await checkPage(page);
      await page.getByRole('link', { name: `Open boss-${js}/tool-${js}` }).click();
      await load();
      expect(pathOf(env.server, page)).toBe(`boss-${js}/tool-${js}`);
    });

    it('explores users by name', async () => {
      await go(`explore/users?q=boss-${js}`);
      expect(await page.getByRole('link', { name: `boss-${js}`, exact: true }).count()).toBe(1);
      await page.getByRole('link', { name: 'Organizations' }).click();
      await load();
      await checkPage(page);
    });
  });
}
