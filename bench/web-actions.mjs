// The Actions, wiki and packages pages against their API twins, on dist/hearth, in one run:
// server time (loopback request to last byte, sequential, after a warm-up) of the run list, the
// page of a job whose step printed 10,000 lines, a wiki page and an owner's packages, each
// beside the API requests returning the same data; p50, p95, ratios. Targets (issue 33): each
// page within 1.5x of its twin, the 10,000-line job page within 1.5x of the API's log download.
// Usage: node bench/web-actions.mjs [requests=50]   (build first: npm run build)
import fs from 'node:fs';
import { benchInstance, rootAuth, wire } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 50);
// The 10,000-line workflow, shared with test/web/actions-pages.test.ts.
const LONG = fs.readFileSync(new URL('../test/fixtures/workflows/long-log.yml', import.meta.url), 'utf8');
const QUICK = 'name: quick\non: workflow_dispatch\njobs:\n  q:\n    runs-on: hearth\n    steps:\n      - run: echo quick\n';

async function until(check, what, ms = 150_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`${what}: not after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const b = await benchInstance('web-actions', { HEARTH__ACTIONS__EMBEDDED_RUNNER: 'true' });
try {
  const { api, h } = b;
  await api('user/repos', { name: 'bench', auto_init: true, default_branch: 'main' });
  await api('repos/root/bench/contents', {
    branch: 'main', message: 'Workflows',
    files: [['.gitea/workflows/long.yml', LONG], ['.gitea/workflows/quick.yml', QUICK]].map(([p, c]) => ({ operation: 'create', path: p, content: Buffer.from(c).toString('base64') })),
  });
  await api('repos/root/bench/actions/workflows/long.yml/dispatches', { ref: 'main' });
  for (let i = 0; i < 19; i++) await api('repos/root/bench/actions/workflows/quick.yml/dispatches', { ref: 'main' });
  const runs = () => api('repos/root/bench/actions/runs?limit=50', undefined, 'GET');
  await until(async () => { const r = await runs(); return r.total_count === 20 && r.workflow_runs.every((x) => x.status === 'completed'); }, 'the 20 runs')
    .catch(async (err) => { console.error(JSON.stringify((await runs()).workflow_runs.map((r) => [r.event, r.status, r.conclusion]))); throw err; });
  const long = (await runs()).workflow_runs.find((r) => r.path?.startsWith('long.yml'));
  const [job] = (await api(`repos/root/bench/actions/runs/${long.id}/jobs`, undefined, 'GET')).jobs;
  await api('repos/root/bench/wiki/new', { title: 'Home', content_base64: Buffer.from(`# Home\n\n${'A paragraph with **bold**, a [link](https://example.com) and `code`.\n\n'.repeat(40)}`).toString('base64') });
  await api('repos/root/bench/wiki/new', { title: '_Sidebar', content_base64: Buffer.from('* [Home](Home)\n').toString('base64') });
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${h.base}api/packages/root/generic/pkg-${i}/1.0.${i}/pkg.bin`, { method: 'PUT', headers: { Authorization: rootAuth(h) }, body: `bytes ${i}` });
    if (res.status !== 201) throw new Error(`package ${i}: ${res.status}`);
  }

  // The pages as a writer sees them.
  const { cookie, pageHeaders: web, twinHeaders } = await b.session();
  await api('repos/root/bench/collaborators/bench', { permission: 'write' }, 'PUT');
  const { page, twin } = b;
  const jobPage = page(`root/bench/actions/runs/${long.run_number}/jobs/0`);
  const text = await (await fetch(jobPage, { headers: web })).text();
  const lines = (text.match(/<li>line \d+ of the long job &lt;with&gt; some &amp; text<\/li>/g) ?? []).length;
  if (lines !== 10_000) throw new Error(`the job page shows ${lines} log lines, not 10,000`);
  if (!text.includes('Re-run this job')) throw new Error('the job page is not the signed-in writer\'s');
  const rows = [
    ['run list (20 runs)', [page('root/bench/actions')], [twin('repos/root/bench/actions/runs?limit=20'), twin('repos/root/bench/actions/workflows')]],
    ['job page, 10,000 log lines', [jobPage], [twin(`repos/root/bench/actions/jobs/${job.id}/logs`)]],
    ['wiki page', [page('root/bench/wiki/Home')], [twin('repos/root/bench/wiki/page/Home')]],
    ['packages list (20)', [page('root/-/packages')], [twin('packages/root?limit=20')]],
  ];
  console.log(`${N} sequential requests each after a warm-up, ${b.label}, pages signed in with Accept-Encoding: br, API twins plain`);
  await b.compare(rows, { runs: N, pageHeaders: web, twinHeaders });
  const [pageBytes, logBytes] = await Promise.all([wire(jobPage, { Cookie: cookie }), wire(twin(`repos/root/bench/actions/jobs/${job.id}/logs`), twinHeaders)]);
  console.log(`job page on the wire: ${pageBytes.bytes} bytes (${pageBytes.encoding}); the API's log: ${logBytes.bytes} bytes (${logBytes.encoding})`);
} finally {
  await b.close();
}
