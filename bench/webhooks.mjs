// Webhooks: push latency to a repository with 10 active hooks against one with none (target
// within 1.05x: deliveries are jobs, read from git after the answer), deliveries per second
// to a local receiver (target 500/s or more on 2 cores), and the server's resident memory
// with 10,000 deliveries pending (the receiver down).
// Usage: node bench/webhooks.mjs [pushes=15]   (dist/hearth when built, else the source via tsx)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { git, median, rssTree, startHearth, time } from './lib.mjs';

const pushes = Number(process.argv[2] ?? 15);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-hooks-'));
const mb = (b) => (b / 1024 / 1024).toFixed(1);

function receiver() {
  const got = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => { got.push(performance.now()); res.end('ok'); });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, got, url: `http://127.0.0.1:${server.address().port}/hook` })));
}

try {
  const rx = await receiver();
  const h = await startHearth(path.join(tmp, 'data'), { HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', HEARTH__WEBHOOK__RETRY_BACKOFF: '600', ...(process.env.WORKERS ? { HEARTH__QUEUE__WORKERS: process.env.WORKERS } : {}) });
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const api = (p, body) => fetch(`${h.base}api/v1/${p}`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  for (const name of ['hooked', 'plain']) await api('user/repos', { name, auto_init: true });
  for (let i = 0; i < 10; i++) await api('repos/root/hooked/hooks', { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['push', 'issues'] });

  // Push latency, alternating between the two repositories.
  const times = { hooked: [], plain: [] };
  for (const name of ['hooked', 'plain']) await git(tmp, 'clone', '-q', `http://root:${h.password}@127.0.0.1:${h.port}/root/${name}.git`, name);
  for (let i = 0; i < pushes; i++) {
    for (const name of ['plain', 'hooked']) {
      const dir = path.join(tmp, name);
      fs.writeFileSync(path.join(dir, `f${i}.txt`), `${i}\n`);
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '-q', '-m', `c${i}`);
      times[name].push(await time(() => git(dir, 'push', '-q', 'origin', 'main')));
    }
  }
  console.log(`git push (median of ${pushes}): 10 hooks ${median(times.hooked).toFixed(0)} ms, none ${median(times.plain).toFixed(0)} ms, ratio ${(median(times.hooked) / median(times.plain)).toFixed(2)}x`);

  // Throughput: 200 issues x 10 hooks = 2,000 deliveries.
  await new Promise((r) => setTimeout(r, 1000));
  rx.got.length = 0;
  const issues = 200;
  const t0 = performance.now();
  for (let i = 0; i < issues; i++) await api('repos/root/hooked/issues', { title: `issue ${i}` });
  const created = performance.now();
  while (rx.got.length < issues * 10 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 20));
  const last = rx.got.at(-1) ?? performance.now();
  const after = rx.got.filter((t) => t > created).length;
  console.log(`deliveries: ${rx.got.length} in ${((last - t0) / 1000).toFixed(2)} s from the first request (${(rx.got.length / ((last - t0) / 1000)).toFixed(0)}/s overall; `
    + `${(after / ((last - created) / 1000)).toFixed(0)}/s once the 200 issues were in, which took ${((created - t0) / 1000).toFixed(2)} s)`);

  // Memory with 10,000 deliveries pending: the receiver is down, every delivery waits to be retried.
  rx.server.close();
  rx.server.closeAllConnections();
  const before = rssTree(h.child.pid);
  for (let i = 0; i < 1000; i++) await api('repos/root/hooked/issues', { title: `pending ${i}` });
  await new Promise((r) => setTimeout(r, 5000));
  console.log(`resident memory: ${mb(before)} MB before, ${mb(rssTree(h.child.pid))} MB with 10,000 deliveries pending${h.exe.endsWith('hearth') ? '' : ' (tsx: process tree)'}`);
  console.log('targets: push within 1.05x; 500 deliveries/s or more; memory flat with pending deliveries');
  h.child.kill('SIGTERM');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
