// The issue pages against their API twins, on dist/hearth, in one run (issue 29): the issue
// page with 200 comments beside GET issue + GET comments, the issue list with filters and
// labels beside the API's filtered list, p50 and p95 of sequential requests after a warm-up;
// the 200-comment page's HTML as brotli bytes on the wire; and in Chromium (when installed) its
// load time and the longest task of the page. Targets: each page within 1.5x of its twin,
// p95 within 3x the median, the page <= 8 KB brotli, loaded within 150 ms, no task over 50 ms.
// Usage: node bench/web-issues.mjs [requests=200]   (build first: npm run build)
import fs from 'node:fs';
import { benchInstance, pct, rootAuth, wire } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 200);
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
/** Load time (navigation start to load end) and the longest task, median of 10 warm loads. */
async function inChromium(url, auth) {
  if (!fs.existsSync(CHROMIUM)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ extraHTTPHeaders: { Authorization: auth } });
    await context.addInitScript(() => {
      globalThis.__longest = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__longest = Math.max(globalThis.__longest, e.duration); })
        .observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    const loads = [];
    let longest = 0;
    for (let i = 0; i < 12; i++) {
      await page.goto(url, { waitUntil: 'load' });
      const [load, task] = await page.evaluate(() => [performance.getEntriesByType('navigation')[0].loadEventEnd, globalThis.__longest]);
      if (i >= 2) { loads.push(load); longest = Math.max(longest, task); }
    }
    return { load: pct(loads, 0.5), longest };
  } finally {
    await browser.close();
  }
}

const b = await benchInstance('web-issues');
try {
  const { api, h } = b;
  const auth = rootAuth(h);
  const headers = { Authorization: auth };
  await api('user/repos', { name: 'bench', auto_init: true });
  const labels = [];
  for (const [name, color] of [['bug', '#ee0701'], ['docs', '#0052cc'], ['ui', '#84b6eb']]) labels.push((await api('repos/root/bench/labels', { name, color })).id);
  const milestone = (await api('repos/root/bench/milestones', { title: 'v1' })).id;
  await api('repos/root/bench/issues', { title: 'A long discussion', body: 'What should we do about **this**?\n\n- [ ] decide\n- [ ] do it', labels, milestone });
  for (let i = 0; i < 200; i++) {
    await api('repos/root/bench/issues/1/comments', { body: `Comment ${i}: I think **this** is ${i % 3 ? 'fine' : 'broken'}, see #1 and @root.` });
  }
  for (let i = 0; i < 60; i++) await api('repos/root/bench/issues', { title: `Issue ${i}`, labels: [labels[i % 3]], milestone: i % 2 ? milestone : undefined });

  const base = `${h.base}root/bench/`;
  console.log(`${N} sequential requests each after a warm-up, ${b.label}`);
  const rows = [
    ['issue, 200 comments', [`${base}issues/1`], [`${h.base}api/v1/repos/root/bench/issues/1`, `${h.base}api/v1/repos/root/bench/issues/1/comments`]],
    ['issue list, label+sort filter', [`${base}issues?labels=${labels[0]}&sort=recentupdate&milestone=${milestone}`],
      [`${h.base}api/v1/repos/root/bench/issues?labels=bug&sort=recentupdate&milestones=v1&limit=20&type=issues`]],
  ];
  await b.compare(rows, { runs: N, pageHeaders: headers, twinHeaders: headers, width: 30 });
  const got = await wire(`${base}issues/1`, headers);
  console.log(`issue, 200 comments: ${(got.bytes / 1024).toFixed(1)} KB on the wire (${got.encoding}; target <= 8 KB brotli)`);
  const browser = await inChromium(`${base}issues/1`, auth);
  console.log(browser
    ? `Chromium, issue with 200 comments: loads in ${browser.load.toFixed(0)} ms (median; target <= 150 ms), longest task ${browser.longest.toFixed(0)} ms (target <= 50 ms; 0 when none over 50)`
    : 'Chromium not found: no browser figures');
} finally {
  await b.close();
}
