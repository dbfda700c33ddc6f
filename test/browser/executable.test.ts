import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPage, haveChromium, launchChromium, type Chromium } from '../helpers/browser';
import { runsExecutable, startHearthProcess, type HearthProcess } from '../helpers/process';
import { eventually } from '../helpers/wait';

// The pages as they ship: CI runs this file again against dist/hearth (HEARTH_EXECUTABLE), where
// the stylesheet and script must come out of the executable itself, at content-hashed URLs that
// browsers keep for a year. In the suite it runs hearth from source in its own process.

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

describe.skipIf(!haveChromium)(`the pages of hearth in its own process (${runsExecutable ? process.env.HEARTH_EXECUTABLE : 'from source'})`, () => {
  let chromium: Chromium | undefined;
  let server: HearthProcess | undefined;
  afterAll(async () => {
    await chromium?.close();
    if (server) { server.child.kill('SIGTERM'); await server.exited; }
  });

  it('signs the printed admin in, and serves its hashed assets as immutable', async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-exe-web-'));
    dirs.push(data);
    server = await startHearthProcess(data, { HEARTH__SERVER__START_SSH_SERVER: 'false' });
    await eventually(async () => /password:\s+\S+/.test(server!.out()), 10_000, 'first admin printed');
    const [, user, password] = /user name:\s+(\S+)[\s\S]*?password:\s+(\S+)/.exec(server.out())!;
    chromium = await launchChromium();
    const page = await chromium.open('on');
    const assets = new Map<string, { status: number; cache: string | undefined }>();
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/assets/')) assets.set(new URL(r.url()).pathname, { status: r.status(), cache: r.headers()['cache-control'] });
    });
    await page.goto(`${server.url}/user/login`);
    await checkPage(page);
    await page.getByLabel('User name or e-mail address').fill(user!);
    await page.getByLabel('Password', { exact: true }).fill(password!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState('load');
    // The printed password is replaced in the browser first.
    expect(new URL(page.url()).pathname).toBe('/user/settings/change_password');
    await page.getByLabel('Current password').fill(password!);
    await page.getByLabel('New password', { exact: true }).fill(`${password}-new`);
    await page.getByLabel('Confirm the new password').fill(`${password}-new`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForLoadState('load');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    await checkPage(page);

    const names = [...assets.keys()];
    expect(names.some((n) => /^\/assets\/hearth\.[0-9a-f]{8,}\.css$/.test(n)), names.join(' ')).toBe(true);
    expect(names.some((n) => /^\/assets\/hearth\.[0-9a-f]{8,}\.js$/.test(n)), names.join(' ')).toBe(true);
    for (const [name, a] of assets) {
      expect(a.status, name).toBe(200);
      expect(a.cache, name).toMatch(/max-age=31536000.*immutable/);
    }
  }, 120_000);
});
