// Memory and latency of the single executable under a steady API load: 4 clients listing a
// page of 50 issues 500 times each, then the resident memory. Shows what the young-generation
// setting (src/lib/v8-tuning.ts) costs and saves: measured on 2 cores, 2.8 ms a page and
// 105-115 MB after the load with it, 2.55 ms and 164 MB without.
// Usage: node bench/load.mjs [exe=dist/hearth]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const exe = path.resolve(process.argv[2] ?? 'dist/hearth');
if (!fs.existsSync(exe)) {
  console.error(`${exe} not found: run npm run build first`);
  process.exit(1);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-load-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const child = spawn(exe, ['web', '--data', path.join(dir, 'data'), '--port', String(port)]);
let out = '';
child.stdout.on('data', (b) => { out += b; });
child.stderr.on('data', (b) => { out += b; });
const base = `http://127.0.0.1:${port}/api/v1`;
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
try {
  for (let tries = 0; ; tries++) {
    try { if ((await fetch(`${base}/version`)).ok) break; } catch { /* starting */ }
    if (tries > 200) throw new Error(`no answer: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const password = /password:\s+(\S+)/.exec(out)?.[1];
  if (!password) throw new Error(`no first admin password printed: ${out}`);
  const headers = { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}`, 'content-type': 'application/json' };
  const idle = rssMb();
  await fetch(`${base}/user/repos`, { method: 'POST', headers, body: JSON.stringify({ name: 'load', auto_init: true }) });
  for (let i = 0; i < 60; i++) {
    await fetch(`${base}/repos/root/load/issues`, { method: 'POST', headers, body: JSON.stringify({ title: `issue ${i}`, body: 'x'.repeat(500) }) });
  }
  const t0 = performance.now();
  let n = 0;
  await Promise.all([0, 1, 2, 3].map(async () => {
    for (let i = 0; i < 500; i++, n++) await (await fetch(`${base}/repos/root/load/issues?limit=50`, { headers })).arrayBuffer();
  }));
  const ms = performance.now() - t0;
  console.log(`hearth under load (${exe})`);
  console.log(`  RSS after start ${idle.toFixed(0)} MB; ${n} issue pages (50 each, 4 clients) in ${ms.toFixed(0)} ms, ${(ms / n).toFixed(2)} ms a page; RSS after ${rssMb().toFixed(0)} MB`);
} finally {
  child.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
