import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { as, createUser } from '../helpers/server';

// Issues in a real Chromium, with JavaScript on and off: create an issue with a label and a
// file, comment, edit the comment in place, react, close with a comment and reopen; labels,
// milestones, the star button and notifications; then a keyboard-only comment. Every page on the way is held to checkPage (axe in both themes and
// widths, no console errors or CSP violations, no sideways scroll at 320 px).

for (const js of ['on', 'off'] as Js[]) {
  describe.skipIf(!haveChromium)(`issues with JavaScript ${js}`, () => {
    let env: BrowserEnv;
    let page: Page;
    let owner: Awaited<ReturnType<typeof createUser>>;
    const root = () => env.server.hearth.config.server.root_url;
    const api = (p: string, json?: unknown, method = json ? 'POST' : 'GET') =>
      env.server.request(`api/v1/${p}`, { method, auth: as(owner), json });
    const load = () => page.waitForLoadState('load');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const json = async (res: Promise<Response>): Promise<any> => (await res).json();

    beforeAll(async () => {
      env = await startBrowser();
      owner = await createUser(env.server, `owner-${js}`);
      await createRepo(env.server, owner, 'proj', { auto_init: true });
      expect((await api(`repos/${owner.username}/proj/labels`, { name: 'bug', color: '#ee0701' })).status).toBe(201);
      page = await env.open(js);
      await signInThroughForm(env, page, owner.username, owner.password);
    });
    afterAll(async () => { await env?.close(); });

    it('creates an issue with a label and a file, comments, edits, reacts, closes and reopens', async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-issue-')), 'notes.txt');
      fs.writeFileSync(file, 'some notes');
      await page.goto(`${root()}${owner.username}/proj/issues`);
      await checkPage(page);
      await page.getByRole('link', { name: 'New issue' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Title').fill('The button is broken');
      await page.getByLabel('Description').fill('Clicking it does nothing.\n\n- [ ] find out why');
      await page.getByRole('checkbox', { name: 'bug' }).check();
      await page.getByLabel('Attach a file').setInputFiles(file);
      await page.getByRole('button', { name: 'Create issue' }).click();
      await load();
      expect(pathOf(env.server, page)).toBe(`${owner.username}/proj/issues/1`);
      expect(await page.locator('.attachments a').textContent()).toBe('notes.txt');
      await checkPage(page);

      await page.getByLabel('Comment', { exact: true }).fill('I can *reproduce* it.');
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await load();
      expect(await page.locator('.comment em').filter({ hasText: 'reproduce' }).count()).toBe(1);

      // Edit in place: the menu's link opens the form where the comment was.
      const comment = page.locator('.comment').filter({ hasText: 'I can reproduce it.' });
      await comment.locator('details.actions summary').click();
      await comment.getByRole('link', { name: 'Edit' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Edit the text').fill('I can reproduce it on Tuesdays.');
      await page.getByRole('button', { name: 'Save' }).click();
      await load();
      expect(await page.getByText('I can reproduce it on Tuesdays.').count()).toBe(1);

      const edited = page.locator('.comment').filter({ hasText: 'on Tuesdays' });
      await edited.getByRole('link', { name: 'Add a reaction' }).click();
      await load();
      await page.locator('.comment').filter({ hasText: 'on Tuesdays' }).getByRole('button', { name: 'React with heart' }).click();
      await load();
      expect(await page.locator('.reaction[aria-pressed="true"]').count()).toBe(1);

      await page.getByRole('checkbox', { name: 'find out why' }).click();
      await load();
      expect((await json(api(`repos/${owner.username}/proj/issues/1`))).body).toContain('- [x] find out why');

      await page.getByLabel('Comment', { exact: true }).fill('Fixed by restarting.');
      await page.getByRole('button', { name: 'Close with comment' }).click();
      await load();
      expect(await page.locator('.event').filter({ hasText: 'closed this issue' }).count()).toBe(1);
      await checkPage(page);
      await page.getByRole('button', { name: 'Reopen with comment' }).click();
      await load();
      const issue = await json(api(`repos/${owner.username}/proj/issues/1`));
      expect([issue.state, issue.labels.map((l: { name: string }) => l.name)]).toEqual(['open', ['bug']]);
    });

    it('manages labels and milestones, stars the repository and reads notifications', async () => {
      await page.goto(`${root()}${owner.username}/proj/labels`);
      await page.locator('details.box summary').click();
      await page.getByLabel('Name').fill('docs');
      await page.getByRole('button', { name: 'Create label' }).click();
      await load();
      await page.getByRole('link', { name: 'Edit docs' }).click();
      await load();
      await checkPage(page);
      await page.goto(`${root()}${owner.username}/proj/milestones`);
      await page.getByRole('link', { name: 'New milestone' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Title').fill('v1');
      await page.getByRole('button', { name: 'Create milestone' }).click();
      await load();
      await page.getByRole('button', { name: /^Star/ }).click();
      await load();
      expect(await page.getByRole('button', { name: /^Unstar/ }).count()).toBe(1);
      await checkPage(page);
      await page.goto(`${root()}notifications`);
      await checkPage(page);
      expect((await json(api(`repos/${owner.username}/proj/labels`))).map((l: { name: string }) => l.name)).toContain('docs');
    });

    it('chooses an issue form from the templates and answers it', async () => {
      const form = 'name: Bug\nabout: Something broke\nbody:\n  - type: input\n    id: what\n    attributes:\n      label: What happened\n    validations:\n      required: true\n'
        + '  - type: dropdown\n    id: os\n    attributes:\n      label: System\n      options: [linux, mac]\n  - type: checkboxes\n    id: terms\n    attributes:\n      label: Checks\n      options:\n        - label: I searched first\n';
      const put = await api(`repos/${owner.username}/proj/contents`, {
        branch: 'main', message: 'Templates', files: [{ operation: 'create', path: '.gitea/ISSUE_TEMPLATE/bug.yaml', content: Buffer.from(form).toString('base64') }],
      });
      expect(put.status).toBe(201);
      await page.goto(`${root()}${owner.username}/proj/issues/new`);
      await checkPage(page);
      await page.getByRole('link', { name: 'Get started: Bug' }).click();
      await load();
      await checkPage(page);
      await page.getByLabel('Title').fill('Broken from a form');
      await page.getByLabel('What happened (required)').fill('It fell over');
      await page.getByLabel('System').selectOption('1');
      await page.getByRole('checkbox', { name: 'I searched first' }).check();
      await page.getByRole('button', { name: 'Create issue' }).click();
      await load();
      const n = Number(/issues\/(\d+)$/.exec(page.url())?.[1]);
      expect((await json(api(`repos/${owner.username}/proj/issues/${n}`))).body)
        .toBe('### What happened\n\nIt fell over\n\n### System\n\nmac\n\n### Checks\n\n- [x] I searched first\n\n');
    });

    it('comments on an issue with the keyboard alone', async () => {
      expect((await api(`repos/${owner.username}/proj/issues`, { title: 'Keyboard only' })).status).toBe(201);
      const n = (await json(api(`repos/${owner.username}/proj/issues?state=all`)))[0].number;
      await page.goto(`${root()}${owner.username}/proj/issues/${n}`);
      const box = page.getByLabel('Comment', { exact: true });
      // Tab from the top of the page until the comment box has the focus.
      for (let i = 0; i < 80 && !(await box.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)); i++) await page.keyboard.press('Tab');
      await page.keyboard.type('Typed without a mouse.');
      // On to the Comment button (past the preview button when the script shows it, and past the file input).
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press('Tab');
        const name = await page.evaluate(() => {
          const el = (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string } | null } }).document.activeElement;
          return el ? `${el.tagName}:${el.textContent}` : '';
        });
        if (name === 'BUTTON:Comment') break;
      }
      await Promise.all([page.waitForURL(/#issuecomment-\d+$/), page.keyboard.press('Enter')]);
      await load();
      const comments = await json(api(`repos/${owner.username}/proj/issues/${n}/comments`));
      expect(comments.map((c: { body: string }) => c.body)).toEqual(['Typed without a mouse.']);
      await checkPage(page);
    });
  });
}
