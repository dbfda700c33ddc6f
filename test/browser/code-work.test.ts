import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { as, createUser } from '../helpers/server';

// Daily code work in a real Chromium, with JavaScript on and off: create a repository with a
// README, browse to a file, a line range and its blame, edit a file on a new branch and start a
// pull request, upload a file, switch branches. Every page on the way is held to checkPage.

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`code work with JavaScript ${js}`, () => {
    let env: BrowserEnv;
    beforeAll(async () => { env = await startBrowser(); });
    afterAll(async () => { await env?.close(); });
    const root = () => env.server.hearth.config.server.root_url;
    const api = (p: string, who: { username: string; password: string }, json: unknown) =>
      env.server.request(`api/v1/${p}`, { method: 'POST', auth: as(who), json });

    /** A user of this test, signed in in a fresh browser context. */
    async function person(name: string): Promise<{ page: Page; user: Awaited<ReturnType<typeof createUser>> }> {
      const user = await createUser(env.server, `${name}-${js}`);
      const page = await env.open(js);
      await signInThroughForm(env, page, user.username, user.password);
      return { page, user };
    }

    /** A repository with a small JavaScript file and a branch `dev`. */
    async function project(user: { username: string; password: string }, name: string): Promise<void> {
      await createRepo(env.server, user, name, { auto_init: true, description: 'A small project' });
      const code = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconsole.log(a + b + c);\n';
      expect((await api(`repos/${user.username}/${name}/contents/src/app.js`, user, { content: Buffer.from(code).toString('base64'), message: 'Add the app' })).status).toBe(201);
      expect((await api(`repos/${user.username}/${name}/branches`, user, { new_branch_name: 'dev' })).status).toBe(201);
    }

    it('creates a repository with a README', async () => {
      const { page, user } = await person('maker');
      await page.getByRole('link', { name: 'New repository' }).first().click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe('repo/create');
      await checkPage(page);
      await page.getByLabel('Repository name').fill('notes');
      await page.getByLabel('Description').fill('My notes');
      await page.getByLabel('Initialize with the files above').check();
      await page.getByRole('button', { name: 'Create repository' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/notes`);
      expect(await page.getByRole('heading', { name: 'README.md' }).count()).toBe(1);
      expect(await page.locator('#readme h1').textContent()).toBe('notes');
      await checkPage(page);
    });

    it('browses to a file, a line range and its blame, and reads a commit', async () => {
      const { page, user } = await person('reader');
      await project(user, 'browse');
      await page.goto(`${root()}${user.username}/browse`);
      await checkPage(page);
      await page.getByRole('link', { name: 'src/' }).click();
      await page.getByRole('link', { name: 'app.js' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/browse/src/branch/main/src/app.js`);
      await page.goto(`${root()}${user.username}/browse/src/branch/main/src/app.js#L2-L3`);
      if (js === 'on') expect(await page.locator('tr.hl').evaluateAll((rows) => rows.map((r) => r.id))).toEqual(['L2', 'L3']);
      expect(await page.locator('#L3 td').nth(1).textContent()).toBe('const c = 3;');
      await checkPage(page);
      await page.getByRole('link', { name: 'Blame' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/browse/blame/branch/main/src/app.js`);
      expect(await page.locator('td.blame-info a').first().textContent()).toBe('Add the app');
      await checkPage(page);
      await page.locator('td.blame-info a').first().click();
      await page.waitForLoadState('load');
      expect(await page.getByRole('heading', { name: 'Add the app' }).count()).toBe(1);
      await checkPage(page);
      await page.getByRole('link', { name: 'Split view' }).click();
      await page.waitForLoadState('load');
      expect(await page.locator('table.diff.split').count()).toBe(1);
      await checkPage(page);
    });

    it('edits a file on a new branch and starts a pull request', async () => {
      const { page, user } = await person('editor');
      await project(user, 'edits');
      await page.goto(`${root()}${user.username}/edits/src/branch/main/src/app.js`);
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/edits/_edit/main/src/app.js`);
      await checkPage(page);
      await page.getByLabel('Content').fill('const a = 10;\n');
      await page.getByLabel('Summary').fill('Make a ten');
      await page.getByLabel('Create a new branch for this commit and start a pull request.').check();
      await page.getByRole('button', { name: 'Commit changes' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/edits/compare/main...${user.username}-patch-1`);
      expect(await page.getByRole('link', { name: 'Make a ten' }).count()).toBe(1);
      await checkPage(page);
    });

    it('uploads a file', async () => {
      const { page, user } = await person('uploader');
      await project(user, 'uploads');
      await page.goto(`${root()}${user.username}/uploads`);
      await page.getByRole('link', { name: 'Upload files' }).click();
      await page.waitForLoadState('load');
      await checkPage(page);
      await page.getByLabel('Directory (empty: the top)').fill('docs');
      await page.getByLabel('Files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded\n') });
      await page.getByRole('button', { name: 'Commit changes' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/uploads/src/branch/main/docs`);
      expect(await page.getByRole('link', { name: 'notes.txt' }).count()).toBe(1);
      await checkPage(page);
    });

    it('switches branch with the switcher, and lists the branches', async () => {
      const { page, user } = await person('switcher');
      await project(user, 'switch');
      await page.goto(`${root()}${user.username}/switch/src/branch/main/src`);
      await page.getByLabel('Branch or tag').selectOption('branch/dev');
      if (js === 'off') await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForURL(`${root()}${user.username}/switch/src/branch/dev/src`);
      expect(await page.getByLabel('Branch or tag').inputValue()).toBe('branch/dev');
      await checkPage(page);
      await page.goto(`${root()}${user.username}/switch/branches`);
      expect(await page.getByText('0 ahead · 0 behind').count()).toBe(1);
      await checkPage(page);
    });
    // Once, with the script: the pages are the same without it, and the flows above check both.
    it.skipIf(js === 'off')('holds the other pages of daily work to the same bar', async () => {
      const { page, user } = await person('visitor');
      await project(user, 'tour');
      await createRepo(env.server, user, 'blank');
      expect((await api(`repos/${user.username}/tour/issues`, user, { title: 'Look at this', body: `@${user.username} please` })).status).toBe(201);
      expect((await api(`repos/${user.username}/tour/tags`, user, { tag_name: 'v1', target: 'main' })).status).toBe(201);
      const pages = [
        'issues?type=mentioned', 'pulls', `${user.username}/blank`, `${user.username}/tour/commits/branch/main`,
        `${user.username}/tour/tags`, `${user.username}/tour/src/branch/main/README.md`,
        `${user.username}/tour/_new/main/docs`, `${user.username}/tour/_delete/main/src/app.js`, `${user.username}/tour/fork`,
        `${user.username}/tour/branches/delete?name=dev`,
      ];
      for (const p of pages) {
        const res = await page.goto(`${root()}${p}`);
        expect(res!.status(), p).toBe(200);
        await checkPage(page);
      }
      // The branch deleted, the branches page offers it back.
      await page.getByRole('button', { name: 'Delete branch' }).click();
      await page.waitForLoadState('load');
      expect(pathOf(env.server, page)).toBe(`${user.username}/tour/branches`);
      expect(await page.getByRole('button', { name: 'Restore branch dev' }).count()).toBe(1);
      await checkPage(page);
    });
  });
}
