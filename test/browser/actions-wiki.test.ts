import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { completedRun, pushFiles } from '../actions/e2e-helpers';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { as, createUser, ok } from '../helpers/server';

// Actions, wiki and packages in a real Chromium with JavaScript on and off (one server, the
// embedded runner): a workflow dispatched from its form runs and its log shows on the job page
// (live with the script, after a refresh without); a wiki page created, edited and seen in its
// history, with the edit's diff; a package published through its API shows with its install command. checkPage on
// every page on the way.

const MANUAL = `name: manual
on:
  workflow_dispatch:
    inputs:
      greeting: { type: string, default: hi, description: Greeting }
      colour: { type: choice, options: [red, blue], default: red }
jobs:
  say:
    runs-on: hearth
    steps:
      - name: speak
        run: echo "says \${{ inputs.greeting }} in \${{ inputs.colour }}"
`;

describe.skipIf(!haveChromium)('Actions, wiki and packages in the browser', () => {
  let env: BrowserEnv;
  const root = () => env.server.hearth.config.server.root_url;
  beforeAll(async () => { env = await startBrowser({ HEARTH__ACTIONS__EMBEDDED_RUNNER: 'true' }); });
  afterAll(async () => { await env?.close(); });

  for (const js of ['on', 'off'] as Js[]) {
    describe(`with JavaScript ${js}`, () => {
      let page: Page;
      let owner: Awaited<ReturnType<typeof createUser>>;
      const load = () => page.waitForLoadState('load');

      beforeAll(async () => {
        owner = await createUser(env.server, `dev-${js}`);
        await createRepo(env.server, owner, 'app');
        await pushFiles(env.server, owner, { '.gitea/workflows/manual.yml': MANUAL });
        page = await env.open(js);
        await signInThroughForm(env, page, owner.username, owner.password);
      });

      it('dispatches a workflow from its form and shows its log', async () => {
        await page.goto(`${root()}${owner.username}/app/actions`);
        await checkPage(page);
        await page.getByRole('link', { name: 'Run manual' }).click();
        await load();
        await checkPage(page);
        await page.getByLabel('Greeting').fill(`hello-${js}`);
        await page.getByLabel('colour').selectOption('blue');
        await page.getByRole('button', { name: 'Run workflow' }).click();
        await load();
        expect(pathOf(env.server, page)).toBe(`${owner.username}/app/actions?workflow=manual.yml`);
        await page.locator('ul.runs a').first().click();
        await load();
        await checkPage(page);
        await page.getByRole('link', { name: /say/ }).click();
        await load();
        const line = page.locator('ol.log li', { hasText: `says hello-${js} in blue` });
        if (js === 'on') {
          await line.waitFor({ timeout: 60_000 });
          await page.locator('h2 .st-success').waitFor({ timeout: 60_000 });
        } else {
          await completedRun(env.server, owner, () => true, 'app', 60_000);
          await page.reload();
        }
        expect(await line.count()).toBe(1);
        await checkPage(page);
      }, 120_000);

      it('shows the repository\'s runners with the registration token, and resets it', async () => {
        await page.goto(`${root()}${owner.username}/app/settings/actions/runners`);
        await checkPage(page);
        const before = await page.getByLabel('Token', { exact: true }).inputValue();
        await page.getByRole('button', { name: 'Reset the token' }).click();
        await load();
        expect(await page.getByLabel('Token', { exact: true }).inputValue()).not.toBe(before);
        await checkPage(page);
      }, 60_000);

      it('creates a wiki page, edits it and sees it in its history', async () => {
        await page.goto(`${root()}${owner.username}/app/wiki`);
        await checkPage(page);
        await page.getByRole('link', { name: 'Create the first page' }).click();
        await load();
        await checkPage(page);
        await page.getByLabel('Title').fill('Home');
        await page.getByLabel('Content').fill('Welcome to **the app**.');
        await page.getByRole('button', { name: 'Create page' }).click();
        await load();
        expect(await page.locator('article strong').textContent()).toBe('the app');
        await checkPage(page);
        await page.getByRole('link', { name: 'Edit' }).click();
        await load();
        await page.getByLabel('Content').fill('Welcome to *the edited app*.');
        await page.getByLabel('Edit message').fill('Say it better');
        await page.getByRole('button', { name: 'Save page' }).click();
        await load();
        expect(await page.locator('article em').textContent()).toBe('the edited app');
        await page.getByRole('link', { name: 'History' }).click();
        await load();
        expect(await page.locator('main').textContent()).toContain('Say it better');
        expect(await page.locator('main ul.list li').count()).toBe(2);
        await checkPage(page);
        await page.getByRole('link', { name: /^Changes of / }).first().click();
        await load();
        expect(await page.locator('h2.commit-title').textContent()).toBe('Say it better');
        expect(await page.locator('tr.add').textContent()).toContain('the edited app');
        await checkPage(page);
      }, 60_000);

      it('shows a published package with its install command', async () => {
        const put = await env.server.request(`api/packages/${owner.username}/generic/tool/2.0.0/tool.tar.gz`, { method: 'PUT', auth: as(owner), body: 'bytes' });
        await ok(put, 201);
        await page.goto(`${root()}${owner.username}/-/packages`);
        await checkPage(page);
        await page.getByRole('link', { name: 'tool' }).click();
        await load();
        expect(await page.getByLabel('Install', { exact: true }).inputValue()).toContain(`api/packages/${owner.username}/generic/tool/2.0.0/tool.tar.gz`);
        expect(await page.getByRole('link', { name: 'tool.tar.gz' }).count()).toBe(1);
        await checkPage(page);
      }, 60_000);
    });
  }
});
