// Startup of the single executable: median time from exec to the first answered request,
// and resident memory after start, over several runs on fresh data dirs (the first start
// migrates and hashes the first admin's password) and on a warm data dir.
// Resident memory depends on the page cache: a freshly written executable (just built or
// copied) is all cached, and the kernel maps whole cached blocks around each page touched, so
// it reads ~14 MB higher than once its pages come back from disk (measured on 2 cores:
// 79 MB just after `npm run build`, 65 MB after `echo 3 > /proc/sys/vm/drop_caches`).
// Usage: node bench/startup.mjs [runs=7] [exe=dist/hearth]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 7);
const exe = path.resolve(process.argv[3] ?? 'dist/hearth');
if (!fs.existsSync(exe)) {
  console.error(`${exe} not found: run npm run build first`);
  process.exit(1);
}

const freePort = () => new Promise((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => resolve(port));
  });
});

async function firstAnswer(port, deadline) {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/version`);
      if (res.ok) return;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error('no answer within 10 s');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const rssMb = (pid) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};

async function once(dataDir) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(exe, ['web', '--port', String(port), '--data', dataDir], {
    stdio: 'ignore', env: { ...process.env, HEARTH__LOG__LEVEL: 'warn' },
  });
  await firstAnswer(port, Date.now() + 10_000);
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 300));
  const rss = rssMb(child.pid);
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { ms, rss };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
try {
  const cold = [];
  for (let i = 0; i < runs; i++) cold.push(await once(path.join(tmp, `fresh-${i}`)));
  const warmDir = path.join(tmp, 'warm');
  await once(warmDir);
  const warm = [];
  for (let i = 0; i < runs; i++) warm.push(await once(warmDir));
  const fmt = (xs) => `median ${median(xs.map((x) => x.ms)).toFixed(0)} ms to first answer, `
    + `RSS median ${median(xs.map((x) => x.rss)).toFixed(1)} MB (max ${Math.max(...xs.map((x) => x.rss)).toFixed(1)} MB)`;
  console.log(`hearth startup over ${runs} runs (${exe})`);
  console.log(`  fresh data dir (migrate + first admin): ${fmt(cold)}`);
  console.log(`  existing data dir:                      ${fmt(warm)}`);
  console.log('  targets: < 250 ms, < 80 MB (RSS counts the executable\'s cached pages: see the header)');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
