import fs from 'node:fs';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './server';

// Browser tests drive Debian's Chromium (never a downloaded browser) through playwright-core.
// Locally they skip when it is missing; under CI=true a missing Chromium fails the run.
// checkPage(page) holds every page to the same bar: no axe violation (no rule disabled, and
// WCAG 2.2's target size, off in axe by default, turned on) in the
// light and dark themes at 1280x900 and 390x844, no console error, no CSP violation, and no
// sideways scroll at 320 px.

export const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
export const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium && process.env.CI === 'true') throw new Error(`browser tests: no Chromium at ${CHROMIUM} (CI must install Debian's chromium)`);

// Without the background-networking flags Chromium calls home over and over on a closed network.
const FLAGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

export type Js = 'on' | 'off';
type PageProblems = { console: string[]; csp: string[] };
const problems = new WeakMap<Page, PageProblems>();

export type BrowserEnv = {
  server: TestServer;
  browser: Browser;
  /** A new context (a fresh browser profile's worth of cookies) and page, with JavaScript on or off. */
  open: (js: Js) => Promise<Page>;
  close: () => Promise<void>;
};

export type Chromium = { browser: Browser; open: (js: Js) => Promise<Page>; close: () => Promise<void> };

/** Debian's Chromium with nothing else: for a test that serves pages some other way (the executable). */
export async function launchChromium(): Promise<Chromium> {
  const { chromium } = await import('playwright-core');
  // playwright gives each launch a fresh --user-data-dir of its own (a temp profile).
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const contexts: BrowserContext[] = [];
  const open = async (js: Js): Promise<Page> => {
    const context = await browser.newContext({ javaScriptEnabled: js === 'on', viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    watch(page);
    return page;
  };
  const close = async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser.close();
  };
  return { browser, open, close };
}

export async function startBrowser(env: Record<string, string> = {}): Promise<BrowserEnv> {
  const chromium = await launchChromium();
  const server = await startTestServer(env);
  return {
    server, browser: chromium.browser, open: chromium.open,
    close: async () => {
      await chromium.close();
      await server.stop();
    },
  };
}

/** Console errors and CSP reports of the page, from its first request on. */
function watch(page: Page): void {
  const found: PageProblems = { console: [], csp: [] };
  problems.set(page, found);
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // The document's own status (a 422 form, a 404, a 429) is the test's to assert, not an error of the page.
    if (/^Failed to load resource: the server responded with a status of/.test(text) && msg.location().url === page.url()) return;
    (/Content Security Policy/i.test(text) ? found.csp : found.console).push(text);
  });
  page.on('pageerror', (err) => found.console.push(String(err)));
}

const axeSource = (): string => fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [{ width: 1280, height: 900 }, { width: 390, height: 844 }];

type AxeResult = { violations: { id: string; impact: string; help: string; nodes: { target: unknown; failureSummary?: string }[] }[] };

/**
 * The page's DOM as it stands, re-served at its own URL in a checking context that bypasses
 * the CSP (to inject axe): works for pages answered to a POST and for JavaScript-off pages.
 */
export async function checkPage(page: Page): Promise<void> {
  const found = problems.get(page)!;
  expect(found.csp, 'CSP violations').toEqual([]);
  expect(found.console, 'console errors').toEqual([]);
  const url = page.url();
  const snapshot = await page.content();
  const cookies = await page.context().cookies();
  const checker = await page.context().browser()!.newContext({ bypassCSP: true, viewport: VIEWPORTS[0] });
  try {
    await checker.addCookies(cookies);
    const view = await checker.newPage();
    await view.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: snapshot }));
    await view.goto(url, { waitUntil: 'load' });
    await view.addScriptTag({ content: axeSource() });
    for (const viewport of VIEWPORTS) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await view.setViewportSize(viewport);
        await view.emulateMedia({ colorScheme });
        // The callbacks run in the page (no DOM types in this project's lib: reached through globalThis).
        const result = await view.evaluate(() => (globalThis as unknown as { axe: { run: (o: object) => Promise<AxeResult> } }).axe.run({ resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } }));
        const summary = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
        expect(summary, `axe at ${viewport.width}x${viewport.height} ${colorScheme} on ${url}`).toEqual([]);
      }
    }
    await view.setViewportSize({ width: 320, height: 800 });
    const wide = await view.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
    expect(wide, `page width at 320 px on ${url}`).toBeLessThanOrEqual(320);
  } finally {
    await checker.close();
  }
}

/** Where the page is, relative to the server's root (`''` for the home page). */
export const pathOf = (s: TestServer, page: Page): string => page.url().slice(s.hearth.config.server.root_url.length);

/** Signs in through the form, as a person would. */
export async function signInThroughForm(env: BrowserEnv, page: Page, login: string, password: string): Promise<void> {
  await page.goto(`${env.server.hearth.config.server.root_url}user/login`);
  await page.getByLabel('User name or e-mail address').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState('load');
}
