// Startup of the single executable, as ratios against the same Node runtime doing nothing:
// `hearth --version` against `node -e 0` (target 1.3x), time to the first answered request on an
// existing data dir against a bare Node HTTP server (target 2x), and resident memory after start
// (target < 64 MB); fresh data dirs (migrate + first admin's password hash) shown for reference.
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
import { execFileSync } from 'node:child_process';
import { RUNTIME } from '../scripts/build-runtime.mjs';

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

// The runtime the executable was built on (scripts/build-runtime.mjs), else this node.
const runtimeNode = [path.resolve('node_modules/.cache/hearth-runtime', `node-${RUNTIME.version}`, 'package/bin/node')]
  .find((p) => fs.existsSync(p)) ?? process.execPath;
const BARE_SERVER = "require('http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')";

async function once(dataDir, bare = false) {
  const port = await freePort();
  const t0 = performance.now();
  const [cmd, args] = bare ? [runtimeNode, ['-e', BARE_SERVER, String(port)]] : [exe, ['web', '--port', String(port), '--data', dataDir]];
  const child = spawn(cmd, args, {
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
const timed = (cmd, args) => { const t0 = performance.now(); execFileSync(cmd, args, { stdio: 'ignore' }); return performance.now() - t0; };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
try {
  const nodeIdle = []; const version = [];
  for (let i = 0; i < runs * 3; i++) { nodeIdle.push(timed(runtimeNode, ['-e', '0'])); version.push(timed(exe, ['--version'])); }
  const cold = [];
  for (let i = 0; i < runs; i++) cold.push(await once(path.join(tmp, `fresh-${i}`)));
  const warmDir = path.join(tmp, 'warm');
  await once(warmDir);
  const warm = []; const bare = [];
  for (let i = 0; i < runs; i++) { warm.push(await once(warmDir)); bare.push(await once(null, true)); }
  const ms = (xs) => median(xs.map((x) => x.ms));
  const rss = (xs) => median(xs.map((x) => x.rss));
  const ratio = (a, b, target) => `${(a / b).toFixed(2)}x (target ${target}x)`;
  console.log(`hearth startup over ${runs} runs (${exe}; baseline ${runtimeNode})`);
  console.log(`  --version:            ${median(version).toFixed(0)} ms vs node -e 0 ${median(nodeIdle).toFixed(0)} ms: ${ratio(median(version), median(nodeIdle), 1.3)}`);
  console.log(`  first answer:         ${ms(warm).toFixed(0)} ms vs bare node server ${ms(bare).toFixed(0)} ms: ${ratio(ms(warm), ms(bare), 2)}`);
  console.log(`  RSS after start:      ${rss(warm).toFixed(1)} MB (max ${Math.max(...warm.map((x) => x.rss)).toFixed(1)} MB; target < 64 MB; bare node server ${rss(bare).toFixed(1)} MB)`);
  console.log(`  fresh data dir:       ${ms(cold).toFixed(0)} ms to first answer (migrate + first admin), RSS ${rss(cold).toFixed(1)} MB`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
