import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, haveChromium, startBrowser, type BrowserEnv, signInThroughForm } from '../helpers/browser';
import { createRepo } from '../helpers/git';
import { createUser } from '../helpers/server';

// The page script's enhancements in Chromium: shortcuts and their setting, line ranges, copy.


describe.skipIf(!haveChromium)('the page script', () => {
  let env: BrowserEnv;
  beforeAll(async () => { env = await startBrowser(); });
  afterAll(async () => { await env?.close(); });

  it('lists the shortcuts on "?", focuses the search on "/", and keeps quiet when the user turned single keys off', async () => {
    const u = await createUser(env.server, 'keyboard');
    const page = await env.open('on');
    await signInThroughForm(env, page, u.username, u.password);
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(await dialog.isVisible()).toBe(true);
    await checkPage(page);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
    await page.keyboard.press('/');
    expect(await page.locator(':focus').getAttribute('name')).toBe('q');
    await env.server.hearth.db.updateTable('user').set({ keyboard_shortcuts: 0 }).where('id', '=', u.id).execute();
    await page.reload();
    await page.keyboard.press('?');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe.skipIf(!haveChromium)('code pages with the script', () => {
  let env: BrowserEnv;
  beforeAll(async () => { env = await startBrowser(); });
  afterAll(async () => { await env?.close(); });

  it('highlights #L2-L3, extends a range by shift-click, and offers the clone URL to copy', async () => {
    const u = await createUser(env.server, 'coder');
    await createRepo(env.server, u, 'lines', { auto_init: true, description: 'one\ntwo' });
    const put = await env.server.request('api/v1/repos/coder/lines/contents/five.txt', {
      method: 'POST', auth: { basic: [u.username, u.password] }, json: { content: Buffer.from('a\nb\nc\nd\ne\n').toString('base64'), message: 'five' },
    });
    expect(put.status).toBe(201);
    const page = await env.open('on');
    const root = env.server.hearth.config.server.root_url;
    await page.goto(`${root}coder/lines/src/branch/main/five.txt#L2-L3`);
    const lit = () => page.locator('tr.hl').evaluateAll((rows) => rows.map((r) => r.id));
    expect(await lit()).toEqual(['L2', 'L3']);
    await page.getByRole('link', { name: '5', exact: true }).click({ modifiers: ['Shift'] });
    expect(await lit()).toEqual(['L2', 'L3', 'L4', 'L5']);
    expect(page.url()).toMatch(/#L2-L5$/);
    await checkPage(page);
    await page.goto(`${root}coder/lines`);
    expect(await page.getByRole('button', { name: 'Copy the HTTPS URL' }).isVisible()).toBe(true);
    await checkPage(page);
    // Without the script the button would do nothing: it stays hidden.
    const plain = await env.open('off');
    await plain.goto(`${root}coder/lines`);
    expect(await plain.getByText('Copy', { exact: true }).first().isVisible()).toBe(false);
  });
});
