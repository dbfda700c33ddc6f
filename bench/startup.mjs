// Startup of the single executable, as ratios against the same Node runtime doing nothing:
// `hearth --version` against `node -e 0` (target 1.3x), time to the first answered request on an
// existing data dir against a bare Node HTTP server (target 2x), and resident memory after start
// (target < 64 MB); fresh data dirs (migrate + first admin's password hash) shown for reference.
// Resident memory depends on the page cache: a freshly written executable (just built or
// copied) is all cached, and the kernel maps whole cached blocks around each page touched, so
// it reads ~14-18 MB higher than once its pages come back from disk. The executables are
// written to disk (fsync: the kernel keeps dirty pages however it is asked to drop them) and
// dropped from the page cache (GNU dd's iflag=nocache), then started once unmeasured, so that
// every measured start of every executable finds the same pages cached: those its own start
// reads. Memory is sampled at the same moment for all (300 ms after the first answer), as the
// median of the runs, and split into anonymous memory (the heap, the program's own) and
// file-backed pages (the executable's code).
// A third baseline, the floor: the libraries a start cannot do without (express, kysely, zod,
// pino, commander, the SQLite addon opening a database) and one route, built into a single
// executable on the same runtime the same way (code cache included): what any start of this
// stack costs before hearth's own code.
// With the built-in SSH server on (ssh2 loads after HTTP listens) against off: target 1.05x.
// Usage: node bench/startup.mjs [runs=7] [exe=dist/hearth]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { createRequire } from 'node:module';
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

/**
 * CPU time the process has used so far, all its threads (V8's compiler and GC threads too), in
 * ms: less at the mercy of other work on the machine than the wall-clock time.
 */
const cpuMs = (pid) => fs.readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => {
  try { return sum + Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6; } catch { return sum; }
}, 0);

/** Resident memory in MB: all of it, anonymous, and file-backed (read at the same moment). */
const memoryMb = (pid) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)[1]) / 1024;
  return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile') };
};

// The runtime the executable was built on (scripts/build-runtime.mjs), else this node.
const runtimeNode = [path.resolve('node_modules/.cache/hearth-runtime', `node-${RUNTIME.version}`, 'package/bin/node')]
  .find((p) => fs.existsSync(p)) ?? process.execPath;
const BARE_SERVER = "require('http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')";

const FLOOR_APP = `
import http from 'node:http';
import express from 'express';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pino from 'pino';
import { z } from 'zod';
import { Command } from 'commander';
const [port, dataDir, addon] = process.argv.slice(2);
const program = new Command('floor').option('--port <p>');
const log = pino({ level: 'warn' });
const Database = require('better-sqlite3');
const binding = { exports: {} };
process.dlopen(binding, addon);
const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(dataDir + '/floor.db', { nativeBinding: binding.exports }) }) });
const version = z.object({ version: z.string() });
const app = express();
app.get('/api/v1/version', async (_q, s) => { await sql\`select 1\`.execute(db); s.json(version.parse({ version: '1' })); });
http.createServer(app).listen(Number(port), '127.0.0.1', () => log.info({ program: program.name() }, 'listening'));
`;

/** The floor app as a single executable on the runtime (see the head of this file). */
async function buildFloor(dir) {
  const require = createRequire(import.meta.url);
  const bundle = path.join(dir, 'floor.cjs');
  await build({ stdin: { contents: FLOOR_APP, resolveDir: path.resolve('.'), loader: 'ts' }, outfile: bundle, bundle: true,
    platform: 'node', target: 'node24', format: 'cjs', minify: true, logLevel: 'error', define: { 'process.env.NODE_ENV': '"production"' } });
  const config = path.join(dir, 'sea.json');
  fs.writeFileSync(config, JSON.stringify({ main: bundle, output: path.join(dir, 'blob'), disableExperimentalSEAWarning: true, useCodeCache: true }));
  execFileSync(runtimeNode, ['--experimental-sea-config', config], { stdio: 'ignore' });
  const floor = path.join(dir, 'floor');
  fs.copyFileSync(runtimeNode, floor);
  fs.chmodSync(floor, 0o755);
  // postject prints LIEF's warnings about the binary's note sections: not ours to fix.
  await require('postject').inject(floor, 'NODE_SEA_BLOB', fs.readFileSync(path.join(dir, 'blob')), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
  return floor;
}
const floorAddon = path.resolve('node_modules/.cache/hearth-runtime', `better-sqlite3-${createRequire(import.meta.url)('better-sqlite3/package.json').version}-node-${RUNTIME.version}`, 'build/Release/better_sqlite3.node');

/** Until the SSH server answers with its version line. */
async function sshAnswer(port, deadline) {
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('data', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('no SSH answer within 10 s');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** One start: time to the first HTTP answer (and, with ssh, to the SSH server's first words). */
async function once(dataDir, bare = false, floor = null, ssh = false) {
  const port = await freePort();
  const sshPort = await freePort();
  const t0 = performance.now();
  const [cmd, args] = floor ? [floor, [String(port), dataDir, floorAddon]]
    : bare ? [runtimeNode, ['-e', BARE_SERVER, String(port)]] : [exe, ['web', '--port', String(port), '--data', dataDir]];
  const child = spawn(cmd, args, {
    stdio: 'ignore',
    env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', HEARTH__SERVER__START_SSH_SERVER: String(ssh), HEARTH__SERVER__SSH_LISTEN_PORT: String(sshPort) },
  });
  await firstAnswer(port, Date.now() + 10_000);
  const ms = performance.now() - t0;
  const cpu = cpuMs(child.pid);
  if (ssh) await sshAnswer(sshPort, Date.now() + 10_000);
  const sshMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 300));
  const memory = memoryMb(child.pid);
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { ms, ...memory, cpu, sshMs };
}

/** Drops a file's pages from the page cache (posix_fadvise DONTNEED, through GNU dd). */
/** Drops a file's pages from the page cache, once written to disk (dirty pages stay cached). */
const evict = (file) => {
  const fd = fs.openSync(file, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
  try { execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']); } catch { /* not GNU dd */ }
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timed = (cmd, args) => { const t0 = performance.now(); execFileSync(cmd, args, { stdio: 'ignore' }); return performance.now() - t0; };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
try {
  for (const f of [exe, runtimeNode]) evict(f);
  const nodeIdle = []; const version = [];
  for (let i = 0; i < runs * 3; i++) { nodeIdle.push(timed(runtimeNode, ['-e', '0'])); version.push(timed(exe, ['--version'])); }
  const cold = [];
  for (let i = 0; i < runs; i++) cold.push(await once(path.join(tmp, `fresh-${i}`)));
  const warmDir = path.join(tmp, 'warm');
  await once(warmDir);
  const floorExe = fs.existsSync(floorAddon) ? await buildFloor(fs.mkdtempSync(path.join(tmp, 'floor-'))) : null;
  await once(warmDir, false, null, true); // the SSH host keys, made once
  // Every executable from disk, then one unmeasured start each (see the head of this file).
  for (const f of [exe, runtimeNode, floorExe]) if (f) evict(f);
  await once(warmDir); await once(null, true);
  if (floorExe) await once(tmp, false, floorExe);
  const warm = []; const bare = []; const floor = []; const withSsh = [];
  for (let i = 0; i < runs; i++) {
    warm.push(await once(warmDir));
    withSsh.push(await once(warmDir, false, null, true));
    bare.push(await once(null, true));
    if (floorExe) floor.push(await once(tmp, false, floorExe));
  }
  const ms = (xs) => median(xs.map((x) => x.ms));
  const rss = (xs) => median(xs.map((x) => x.rss));
  const cpu = (xs) => median(xs.map((x) => x.cpu));
  const med = (xs, key) => median(xs.map((x) => x[key]));
  const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
  const memory = (xs) => `${rss(xs).toFixed(1)} MB (${Math.min(...xs.map((x) => x.rss)).toFixed(1)}-${Math.max(...xs.map((x) => x.rss)).toFixed(1)}; `
    + `anonymous ${med(xs, 'anon').toFixed(1)}, file ${med(xs, 'file').toFixed(1)})`;
  const ratio = (a, b, target) => `${(a / b).toFixed(2)}x (target ${target}x)`;
  console.log(`hearth startup over ${runs} runs (${exe}; baseline ${runtimeNode})`);
  console.log(`  --version:            ${median(version).toFixed(0)} ms vs node -e 0 ${median(nodeIdle).toFixed(0)} ms: ${ratio(median(version), median(nodeIdle), 1.3)}`);
  console.log(`  first answer:         ${ms(warm).toFixed(0)} ms vs bare node server ${ms(bare).toFixed(0)} ms: ${ratio(ms(warm), ms(bare), 2)}`);
  console.log(`  RSS after start:      ${memory(warm)} (target < 64 MB); bare node server ${memory(bare)}`);
  if (floorExe) {
    console.log(`  floor (express, kysely, zod, pino, commander, SQLite; one route, same runtime): ${ms(floor).toFixed(0)} ms to first answer, ${ratio(ms(floor), ms(bare), 2)}; RSS ${memory(floor)}`);
    const over = (key) => `${signed(med(warm, key) - med(floor, key))} MB`;
    console.log(`  hearth over the floor: ${(ms(warm) / ms(floor)).toFixed(2)}x the time (target 1.25x), ${over('rss')} (target +8 MB: anonymous ${over('anon')}, file ${over('file')}); `
      + `CPU to first answer ${cpu(warm).toFixed(0)} ms vs ${cpu(floor).toFixed(0)} ms: ${(cpu(warm) / cpu(floor)).toFixed(2)}x`);
  }
  console.log(`  SSH server on:        first answer ${ms(withSsh).toFixed(0)} ms vs off ${ms(warm).toFixed(0)} ms: ${ratio(ms(withSsh), ms(warm), 1.05)}; `
    + `SSH answers at ${median(withSsh.map((x) => x.sshMs)).toFixed(0)} ms; RSS ${rss(withSsh).toFixed(1)} MB vs ${rss(warm).toFixed(1)} MB`);
  console.log(`  fresh data dir:       ${ms(cold).toFixed(0)} ms to first answer (migrate + first admin), RSS ${rss(cold).toFixed(1)} MB`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
