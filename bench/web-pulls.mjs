// The pull request pages against their API twins, on dist/hearth, in one run: server time
// (loopback request to last byte, sequential, after a warm-up) of the conversation with its
// merge box and statuses, and of "Files changed" for 2 files and for 50 files with 2,000
// changed lines, beside the API requests returning the same data; p50, p95, ratios. Then, in
// Chromium when there is one, the long tasks (> 50 ms) of the page's own script on the
// 50-file page. Targets (issue 29): files within 1.5x of the API's files + diff warm, about
// <= 40 ms for 50 files, p95 within 3x the median, no long task from the page's script.
// Usage: node bench/web-pulls.mjs [requests=100]   (build first: npm run build)
import fs from 'node:fs';
import { benchInstance } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 100);
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];
/** Long tasks seen while the page loads and its deferred script runs, in Chromium. */
async function longTasks(url, cookie) {
  if (!fs.existsSync(CHROMIUM)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const context = await browser.newContext();
    await context.addCookies(cookie.split('; ').map((c) => {
      const at = c.indexOf('=');
      return { name: c.slice(0, at), value: c.slice(at + 1), url };
    }));
    const page = await context.newPage();
    await page.addInitScript(() => {
      globalThis.__long = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) globalThis.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(url, { waitUntil: 'load' });
    // The deferred script has run by `load`; one frame more lets the observer report.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    const signedIn = await page.getByText('Submit review').count();
    return { tasks: await page.evaluate(() => globalThis.__long), signedIn };
  } finally {
    await browser.close();
  }
}

const b = await benchInstance('web-pulls');
try {
  const { api, h } = b;
  await api('user/repos', { name: 'bench', auto_init: true, default_branch: 'main' });
  const lines = (seed, n) => Array.from({ length: n }, (_, i) => `export const v${i} = '${seed} ${i}';`).join('\n') + '\n';
  const branch = async (name, files) => api('repos/root/bench/contents', {
    branch: 'main', new_branch: name, message: `Branch ${name}`,
    files: files.map(([p, c]) => ({ operation: 'create', path: p, content: Buffer.from(c).toString('base64') })),
  });
  await branch('two', [['a.ts', lines('a', 10)], ['b.ts', lines('b', 10)]]);
  await branch('fifty', Array.from({ length: 50 }, (_, i) => [`src/f${i}.ts`, lines(`f${i}`, 40)]));
  const two = (await api('repos/root/bench/pulls', { head: 'two', base: 'main', title: 'Two files', body: 'A **small** change.' })).number;
  const fifty = (await api('repos/root/bench/pulls', { head: 'fifty', base: 'main', title: 'Fifty files', body: 'A big change.' })).number;
  const head = (await api(`repos/root/bench/pulls/${two}`, undefined, 'GET')).head.sha;
  for (const context of ['ci/build', 'ci/test', 'lint']) await api(`repos/root/bench/statuses/${head}`, { state: 'success', context, description: 'ok' });
  for (let i = 0; i < 5; i++) await api(`repos/root/bench/issues/${two}/comments`, { body: `Comment ${i} with \`code\` and a [link](https://example.com).` });
  await api(`repos/root/bench/branch_protections`, { rule_name: 'main', required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci/*'] });

  // The pages as a writer sees them.
  const { cookie, pageHeaders: web, twinHeaders: apiHeaders } = await b.session();
  await api('repos/root/bench/collaborators/bench', { permission: 'write' }, 'PUT');
  const page = (p) => `${h.base}root/bench/pulls/${p}`;
  const twin = (p) => `${h.base}api/v1/repos/root/bench/${p}`;
  const rows = [
    ['conversation + merge box', [page(two)], [twin(`pulls/${two}`), twin(`issues/${two}/comments`), twin(`pulls/${two}/reviews`), twin(`commits/${head}/status`), twin('branch_protections')]],
    ['files changed, 2 files', [page(`${two}/files`)], [twin(`pulls/${two}/files`), `${page(two)}.diff`]],
    ['files changed, 50 files', [page(`${fifty}/files`)], [twin(`pulls/${fifty}/files?limit=50`), `${page(fifty)}.diff`]],
  ];
  // The pages as measured: signed in, with the forms a writer gets.
  await b.expectPages([[page(two), 'Merge pull request'], [page(`${fifty}/files`), 'Submit review']], web);
  console.log(`${N} sequential requests each after a warm-up, ${b.label}, pages signed in with Accept-Encoding: br, API twins plain JSON`);
  await b.compare(rows, { runs: N, pageHeaders: web, twinHeaders: apiHeaders, target: 'files: target <= 1.5x, ~<= 40 ms for 50 files; p95/p50 <= 3x' });
  const seen = await longTasks(page(`${fifty}/files`), cookie);
  if (!seen) console.log('Chromium not found: long tasks not measured');
  else {
    const { tasks, signedIn } = seen;
    console.log(`Chromium, the 50-file page${signedIn ? ' signed in' : ''} to load and its deferred script: ${tasks.length} long task(s) over 50 ms${tasks.length ? ` (${tasks.map((t) => t.toFixed(0)).join(', ')} ms; parsing and layout count too)` : ''}`);
  }
} finally {
  await b.close();
}
