import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo, gitTry } from '../helpers/git';
import { cloneWork, commitFile } from '../helpers/pull-fixtures';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { as, createUser } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Repository settings and releases in a real Chromium, JavaScript on and off, one server for
// the file: a collaborator added and a branch protection rule that then refuses a push made
// with git; a webhook added in the browser that delivers to a local receiver, its delivery
// shown with the response; a release made with an asset, edited, deleted. checkPage on each page.

let env: BrowserEnv;
let owner: Awaited<ReturnType<typeof createUser>>;
let friend: Awaited<ReturnType<typeof createUser>>;
let receiver: Receiver;
const root = () => env.server.hearth.config.server.root_url;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const api = async (p: string): Promise<any> => (await env.server.request(`api/v1/${p}`, { auth: as(owner) })).json();

beforeAll(async () => {
  if (!haveChromium) return;
  env = await startBrowser({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  owner = await createUser(env.server, 'owner');
  friend = await createUser(env.server, 'friend');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await env?.close();
});

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`repository settings with JavaScript ${js}`, () => {
    let page: Page;
    const load = () => page.waitForLoadState('load');
    const go = async (p: string) => { await page.goto(`${root()}${p}`); await checkPage(page); };

    beforeAll(async () => {
      page = await env.open(js);
      await signInThroughForm(env, page, owner.username, owner.password);
    });

    it('adds a collaborator and a branch protection rule that refuses their push', async () => {
      const repo = `guarded-${js}`;
      await createRepo(env.server, owner, repo, { auto_init: true });
      await go(`owner/${repo}`);
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await load();
      await checkPage(page);
      await page.getByRole('link', { name: 'Collaborators' }).click();
      await load();
      await page.getByLabel('User name').fill('friend');
      await page.getByLabel('Permission', { exact: true }).selectOption('write');
      await page.getByRole('button', { name: 'Add collaborator' }).click();
      await load();
      expect(await page.getByText('The collaborator has been added.').count()).toBe(1);
      await checkPage(page);
      expect((await api(`repos/owner/${repo}/collaborators/friend/permission`)).permission).toBe('write');

      await page.getByRole('link', { name: 'Branch protection' }).click();
      await load();
      await checkPage(page);
      await page.getByRole('link', { name: 'Add a rule' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Branch name or pattern (glob)').fill('main');
      await page.getByLabel('Only the users and teams below may push').check();
      await page.getByLabel('Users who may push (comma-separated)').fill('owner');
      await page.getByRole('button', { name: 'Create rule' }).click();
      await load();
      expect(pathOf(env.server, page)).toBe(`owner/${repo}/settings/branches?done=rule-saved`);
      await checkPage(page);

      const work = await cloneWork(env.server, 'owner', repo, friend);
      await commitFile(work.dir, 'blocked.txt', 'not allowed');
      const pushed = await gitTry(work.dir, 'push', 'origin', 'HEAD:main');
      expect(pushed.code).not.toBe(0);
      expect(pushed.stderr).toMatch(/protected/i);
    });

    it('adds a webhook that delivers, and shows the delivery with its response', async () => {
      const repo = `hooked-${js}`;
      await createRepo(env.server, owner, repo, { auto_init: true });
      await go(`owner/${repo}/settings/hooks`);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Target URL').fill(receiver.url);
      await page.getByLabel('Secret').fill('hook-secret');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await load();
      await checkPage(page);
      const before = receiver.requests.length;
      await page.getByRole('button', { name: 'Test delivery' }).click();
      await load();
      await eventually(async () => receiver.requests.length > before, 15_000, 'the delivery');
      const [hook] = await api(`repos/owner/${repo}/hooks`);
      await eventually(async () => (await api(`repos/owner/${repo}/hooks/${hook.id}/deliveries`))[0]?.status_code === 200, 15_000, 'the delivery recorded');
      await page.reload();
      await page.locator('#deliveries summary').first().click();
      expect(await page.locator('#deliveries').getByText('answered 200').count()).toBe(1);
      await checkPage(page);
    });

    it('every settings section passes checkPage, forms and their 422s included', async () => {
      const repo = `sections-${js}`;
      await createRepo(env.server, owner, repo, { auto_init: true });
      for (const section of ['', '/collaboration', '/branches', '/tags', '/hooks', '/keys', '/actions', '/mirror', '/delete', '/transfer']) {
        await go(`owner/${repo}/settings${section}`);
      }
      await go(`owner/${repo}/settings/tags`);
      await page.getByLabel('Tag name or pattern').fill('v*');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await load();
      expect(await page.getByRole('alert').textContent()).toContain('whitelist');
      await checkPage(page);
      await go(`owner/${repo}/settings/delete`);
      await page.getByLabel(`Type owner/${repo} to confirm`).fill('wrong');
      await page.getByRole('button', { name: 'Delete this repository' }).click();
      await load();
      expect(await page.locator('#f-repo_name-error').count()).toBe(1);
      await checkPage(page);
    });

    it('creates a release with an asset, edits it and deletes it', async () => {
      const repo = `released-${js}`;
      await createRepo(env.server, owner, repo, { auto_init: true });
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-release-')), 'build.txt');
      fs.writeFileSync(file, 'built');
      await go(`owner/${repo}/releases`);
      await page.getByRole('link', { name: 'New release' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Tag name').fill('v1.0');
      await page.getByLabel('Title').fill('First release');
      await page.getByLabel('Notes').fill('The **first** one.');
      await page.getByLabel('Add assets').setInputFiles(file);
      await page.getByRole('button', { name: 'Create release' }).click();
      await load();
      expect(pathOf(env.server, page)).toBe(`owner/${repo}/releases/tag/v1.0`);
      expect(await page.getByRole('link', { name: 'build.txt' }).count()).toBe(1);
      await checkPage(page);

      await page.getByRole('link', { name: 'Edit release v1.0' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Title').fill('First release, renamed');
      await page.getByLabel('Pre-release: not ready for production').check();
      await page.getByRole('button', { name: 'Save release' }).click();
      await load();
      expect(await page.getByRole('heading', { name: /First release, renamed/ }).count()).toBe(1);
      expect((await api(`repos/owner/${repo}/releases/tags/v1.0`)).prerelease).toBe(true);

      await go(`owner/${repo}/releases/edit/v1.0`);
      await page.getByRole('link', { name: 'Delete release' }).click();
      await load();
      await checkPage(page);
      await page.getByRole('button', { name: 'Delete release' }).click();
      await load();
      expect(pathOf(env.server, page)).toBe(`owner/${repo}/releases`);
      expect(await page.getByText('No releases.').count()).toBe(1);
    });
  });
}
