// The issue pages against their API twins, on dist/hearth, in one run (issue 29): the issue
// page with 200 comments beside GET issue + GET comments, the issue list with filters and
// labels beside the API's filtered list, p50 and p95 of sequential requests after a warm-up;
// the 200-comment page's HTML as brotli bytes on the wire; and in Chromium (when installed) its
// load time and the longest task of the page. Targets: each page within 1.5x of its twin,
// p95 within 3x the median, the page <= 8 KB brotli, loaded within 150 ms, no task over 50 ms.
// Usage: node bench/web-issues.mjs [requests=200]   (build first: npm run build)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startHearth } from './lib.mjs';

const N = Number(process.argv[2] ?? 200);
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-web-issues-'));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => x.toFixed(2).padStart(7);

async function timed(url, headers) {
  const t = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
  return performance.now() - t;
}

/** p50 and p95 of sequential rounds of the urls (each round's times summed). */
async function measure(urls, headers) {
  for (let i = 0; i < 20; i++) for (const u of urls) await timed(u, headers);
  const times = [];
  for (let i = 0; i < N; i++) {
    let sum = 0;
    for (const u of urls) sum += await timed(u, headers);
    times.push(sum);
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95) };
}

/** The page's bytes as they travel to a browser asking for brotli. */
const wire = (url, headers) => new Promise((resolve, reject) => {
  http.get(url, { headers: { ...headers, 'Accept-Encoding': 'br' } }, (res) => {
    let bytes = 0;
    res.on('data', (c) => { bytes += c.length; });
    res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'none' }));
  }).on('error', reject);
});

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

try {
  const h = await startHearth(path.join(tmp, 'data'));
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const headers = { Authorization: auth };
  const api = async (p, body, method = 'POST') => {
    const res = await fetch(`${h.base}api/v1/${p}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
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
  console.log(`${N} sequential requests each after a warm-up, ${h.exe.endsWith('hearth') ? 'dist/hearth' : 'source via tsx'}`);
  console.log('page'.padEnd(30), '   p50     p95  p95/p50 | twin p50  twin p95 | ratio p50 (target <= 1.5x; p95/p50 <= 3x)');
  const rows = [
    ['issue, 200 comments', [`${base}issues/1`], [`${h.base}api/v1/repos/root/bench/issues/1`, `${h.base}api/v1/repos/root/bench/issues/1/comments`]],
    ['issue list, label+sort filter', [`${base}issues?labels=${labels[0]}&sort=recentupdate&milestone=${milestone}`],
      [`${h.base}api/v1/repos/root/bench/issues?labels=bug&sort=recentupdate&milestones=v1&limit=20&type=issues`]],
  ];
  for (const [name, page, twin] of rows) {
    const a = await measure(page, headers);
    const b = await measure(twin, headers);
    console.log(name.padEnd(30), `${ms(a.p50)} ${ms(a.p95)} ${(a.p95 / a.p50).toFixed(2).padStart(6)}x | ${ms(b.p50)}  ${ms(b.p95)} | ${(a.p50 / b.p50).toFixed(2)}x`);
  }
  const got = await wire(`${base}issues/1`, headers);
  console.log(`issue, 200 comments: ${(got.bytes / 1024).toFixed(1)} KB on the wire (${got.encoding}; target <= 8 KB brotli)`);
  const browser = await inChromium(`${base}issues/1`, auth);
  console.log(browser
    ? `Chromium, issue with 200 comments: loads in ${browser.load.toFixed(0)} ms (median; target <= 150 ms), longest task ${browser.longest.toFixed(0)} ms (target <= 50 ms; 0 when none over 50)`
    : 'Chromium not found: no browser figures');
  h.child.kill('SIGTERM');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
