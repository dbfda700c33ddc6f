import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkPage, haveChromium, pathOf, signInThroughForm, startBrowser, type BrowserEnv, type Js } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { cloneWork, ok, type Creds } from '../helpers/pull-fixtures';
import { as, createUser } from '../helpers/server';

// Reviewing a pull request in a real Chromium, with JavaScript on and off: the author opens it
// from the comparison; a reviewer comments
// on a diff line into a review and requests changes; the author marks files viewed and pushes
// with git (the changed file comes back unviewed); the reviewer approves with the keyboard
// only, then squash-merges deleting the branch; the issue the pull "Fixes" is closed by it.
// One server for the file; each kind of page on the way (files with a pending review and with
// outdated threads, the conversation with its merge box) is held to checkPage.

describe.skipIf(!haveChromium)('reviewing a pull request', () => {
  let env: BrowserEnv;
  beforeAll(async () => { env = await startBrowser(); });
  afterAll(async () => { await env?.close(); });
  const root = () => env.server.hearth.config.server.root_url;

  async function signedIn(user: Creds, js: Js): Promise<Page> {
    const page = await env.open(js);
    await signInThroughForm(env, page, user.username, user.password);
    return page;
  }

  async function go(page: Page, path: string): Promise<void> {
    await page.goto(`${root()}${path}`);
    await page.waitForLoadState('load');
  }

  for (const js of ['on', 'off'] as Js[]) {
    it(`reviews, pushes, approves and squash-merges with JavaScript ${js}`, async () => {
      const s = env.server;
      const [owner, author] = [await createUser(s, `owner-${js}`), await createUser(s, `author-${js}`)];
      const repo = `${owner.username}/proj`;
      const api = (p: string, method = 'GET', json?: unknown, who: Creds = owner) => s.request(`api/v1/repos/${repo}/${p}`, { method, auth: as(who), json });
      await createRepo(s, owner, 'proj', { auto_init: true, default_branch: 'main' });
      await ok(await api(`collaborators/${author.username}`, 'PUT', { permission: 'write' }), 204);
      const issue = await ok(await api('issues', 'POST', { title: 'Broken' }), 201);
      const work = await cloneWork(s, owner.username, 'proj', author);
      await work.branch('fix', { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
      // The author opens the pull request from the comparison.
      const writer = await signedIn(author, js);
      await go(writer, `${repo}/compare/main...fix`);
      await checkPage(writer);
      await writer.getByLabel('Title').fill('Fix it');
      await writer.getByLabel('Description').fill(`Fixes #${issue.number}`);
      await writer.getByRole('button', { name: 'Create pull request' }).click();
      await writer.waitForLoadState('load');
      const pull = { number: issue.number + 1 };
      expect(pathOf(s, writer)).toBe(`${repo}/pulls/${pull.number}`);
      const files = `${repo}/pulls/${pull.number}/files`;

      // The reviewer comments on a line into a review, then requests changes.
      const reviewer = await signedIn(owner, js);
      await go(reviewer, files);
      await reviewer.getByRole('link', { name: 'Comment on line 1 of a.txt' }).click();
      await reviewer.waitForLoadState('load');
      // With the script the form opens in place; without, the link's page state holds it.
      expect(pathOf(s, reviewer).startsWith(`${files}?`)).toBe(js === 'off');
      await reviewer.getByRole('textbox', { name: 'Comment on line 1' }).fill('Spell it out');
      await reviewer.getByRole('button', { name: 'Start a review' }).click();
      await reviewer.waitForLoadState('load');
      expect(await reviewer.getByText('Pending', { exact: true }).count()).toBe(1);
      await checkPage(reviewer);
      await reviewer.getByLabel('Review summary').fill('Needs work');
      await reviewer.getByLabel('Request changes').check();
      await reviewer.getByRole('button', { name: 'Submit review' }).click();
      await reviewer.waitForLoadState('load');
      expect(pathOf(s, reviewer)).toMatch(new RegExp(`^${repo}/pulls/${pull.number}#issuecomment-\\d+$`));
      expect(await reviewer.locator('.comment', { hasText: 'Needs work' }).count()).toBe(1);
      await checkPage(reviewer);

      // The author marks both files viewed, then pushes: the changed file comes back unviewed.
      await go(writer, files);
      for (const name of ['a.txt', 'b.txt']) {
        await writer.getByRole('button', { name: `Viewed: ${name}` }).click();
        await writer.waitForLoadState('load');
      }
      expect(await writer.locator('#viewed-count').textContent()).toBe('2 / 2 viewed');
      await work.pushTo('fix', 'a.txt', 'alpha, spelt out\n');
      await go(writer, files);
      expect(await writer.locator('#viewed-count').textContent()).toBe('1 / 2 viewed');
      expect(await writer.getByRole('button', { name: 'Viewed: a.txt' }).getAttribute('aria-pressed')).toBe('false');
      await checkPage(writer);

      // The reviewer approves with the keyboard alone: the summary opens, the verdict is picked with arrows.
      await go(reviewer, files);
      await reviewer.locator('#finish-review summary').focus();
      await reviewer.keyboard.press('Enter');
      await reviewer.keyboard.press('Tab');
      await reviewer.keyboard.type('Good now');
      await reviewer.keyboard.press('Tab');
      await reviewer.keyboard.press('ArrowRight');
      expect(await reviewer.getByLabel('Approve').isChecked()).toBe(true);
      await reviewer.keyboard.press('Tab');
      await Promise.all([reviewer.waitForURL(/#issuecomment-\d+$/), reviewer.keyboard.press('Enter')]);
      expect(pathOf(s, reviewer)).toMatch(new RegExp(`^${repo}/pulls/${pull.number}#issuecomment-\\d+$`));
      const reviews = await ok(await api(`pulls/${pull.number}/reviews`));
      expect(reviews.map((r: { state: string }) => r.state)).toEqual(['REQUEST_CHANGES', 'APPROVED']);

      // Squash, deleting the branch.
      await reviewer.getByLabel('Squash and merge').check();
      await reviewer.getByLabel(/Delete branch/).check();
      await reviewer.getByRole('button', { name: 'Merge pull request' }).click();
      await reviewer.waitForLoadState('load');
      expect(await reviewer.getByText('This pull request was merged').count()).toBe(1);
      const merged = await ok(await api(`pulls/${pull.number}`));
      expect(merged.merged).toBe(true);
      expect((await api('branches/fix')).status).toBe(404);
      const closing = async () => {
        const events = await ok(await api(`issues/${issue.number}/timeline`));
        return events.find((e: { type: string; ref_commit_sha?: string }) => e.type === 'close')?.ref_commit_sha ?? '';
      };
      await expect.poll(closing, { timeout: 10_000 }).toBe(merged.merge_commit_sha);
      expect((await ok(await api(`issues/${issue.number}`))).state).toBe('closed');
    });
  }
});
