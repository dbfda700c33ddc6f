// CPU time per request of GET /repos/{o}/{r} and GET /user (Basic and token) on SQLite and on
// PostgreSQL, beside the bare endpoint (bench/bare-server.mjs), in one run. Requests per second
// on a shared, loaded machine follow the neighbours' load; the CPU a fixed number of requests
// costs (hearth's processes, and on PostgreSQL the cluster's backends too, since they share the
// machine's cores) moves much less. Printed: microseconds per request, each server's ratio to the
// bare endpoint, PostgreSQL's ratio over SQLite's (bench/api's goal: within 1.5x), and the API's
// credentials checked through passport against the same checks by a direct call
// (HEARTH_API_AUTH=direct), Basic and token, measured in turns.
// HEARTH_BENCH_BEFORE=<dir> (a checkout of an earlier commit, with node_modules) adds that
// commit's servers on both engines to the same run: before and after side by side.
// Usage: node bench/api-cpu.mjs [requests=4000] [rounds=3]   (dist/hearth when built, else tsx)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { freePort, median, root, startHearth } from './lib.mjs';
import { postgresInstalled, startPostgres } from './postgres.mjs';

const amount = Number(process.argv[2] ?? 4000);
const rounds = Number(process.argv[3] ?? 3);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-cpu-'));
const TICK_US = 1e6 / 100; // /proc/<pid>/stat counts in clock ticks, 100 a second on Linux

/** CPU ticks (user + system) of a process and all its descendants, from /proc. */
function cpuTree(pid) {
  const children = new Map();
  const ticks = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = fs.readFileSync(`/proc/${name}/stat`, 'utf8').slice(0).split(') ')[1].split(' ');
      const ppid = Number(f[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
      ticks.set(Number(name), Number(f[11]) + Number(f[12]));
    } catch { /* gone meanwhile */ }
  }
  let total = 0;
  const walk = (p) => { total += ticks.get(p) ?? 0; for (const c of children.get(p) ?? []) walk(c); };
  walk(pid);
  return total;
}

const cannon = (url, headers, n) => new Promise((resolve, reject) => {
  autocannon({ url, connections: 4, amount: n, headers }, (err, r) => (err ? reject(err) : resolve(r)));
});

/** Microseconds of CPU per request: the server's processes (and `extraPid`'s tree: PostgreSQL). */
async function cpuPerRequest(server, p, headers, n = amount) {
  const pids = [server.child.pid, ...(server.extraPid ? [server.extraPid] : [])];
  const before = pids.map(cpuTree);
  const r = await cannon(`${server.base}${p}`, headers, n);
  if (r.non2xx || r.errors) throw new Error(`${server.name} ${p}: non-2xx ${r.non2xx}, errors ${r.errors}`);
  const after = pids.map(cpuTree);
  return pids.map((_, i) => ((after[i] - before[i]) * TICK_US) / n);
}

async function seed(h) {
  const headers = { Authorization: `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`, 'Content-Type': 'application/json' };
  await fetch(`${h.base}api/v1/user/repos`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', auto_init: true, license: 'MIT' }) });
  const res = await fetch(`${h.base}api/v1/users/root/tokens`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', scopes: ['all'] }) });
  const { sha1 } = await res.json();
  return { basic: { Authorization: headers.Authorization }, token: { Authorization: `token ${sha1}` } };
}

async function startBare(dbFile, repoDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'bench/bare-server.mjs'), dbFile, repoDir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  return { name: 'bare', child, base: `http://127.0.0.1:${port}/` };
}

const before = process.env.HEARTH_BENCH_BEFORE;
const clusters = [];
const started = [];
try {
  const servers = [];
  const add = async (name, dir, env, from) => {
    const h = await startHearth(path.join(tmp, dir), env, from);
    started.push(h.child);
    servers.push(Object.assign(h, { name, creds: await seed(h) }));
    return h;
  };
  /** hearth on both engines (PostgreSQL on a cluster of its own) from the checkout `from`. */
  const pair = async (suffix, from) => {
    await add(`sqlite${suffix}`, `data${suffix}`, {}, from);
    if (!postgresInstalled()) return;
    const pg = startPostgres();
    clusters.push(pg);
    const h = await add(`postgres${suffix}`, `data-pg${suffix}`, pg.env, from);
    h.extraPid = Number(fs.readFileSync(path.join(pg.socketDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  };
  await pair('', undefined);
  if (before) await pair(' before', path.resolve(before));
  await add('sqlite, direct auth', 'data-direct', { HEARTH_API_AUTH: 'direct' });
  const bare = await startBare(path.join(tmp, 'data', 'hearth.db'), path.join(tmp, 'data', 'repositories', 'root', 'bench.git'));
  started.push(bare.child);
  const cases = [
    ['GET /repos/{o}/{r}, Basic', 'api/v1/repos/root/bench', 'basic'],
    ['GET /user, Basic', 'api/v1/user', 'basic'],
    ['GET /user, token', 'api/v1/user', 'token'],
  ];
  const sqlite = servers[0];
  const targets = () => [...servers, bare];
  console.log(`${amount} requests per measurement, 4 connections, ${rounds} rounds (medians, order rotated each round); load: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // Warm-up: a process's first 10,000 calls of the deprecated Buffer() (passport-http's, one per
  // Basic request) each walk the stack for Node's deprecation warning; the figures below are past
  // them. What those first requests cost is printed here.
  const first = [];
  for (const s of servers) first.push([s.name, (await cpuPerRequest(s, 'api/v1/user', s.creds.basic, 10_500)).reduce((a, b) => a + b, 0)]);
  console.log(`a new process's first 10,500 GET /user, Basic: µs CPU per request: ${first.map(([n, us]) => `${n} ${us.toFixed(0)}`).join(', ')}`);
  for (const [, p, kind] of cases) for (const s of targets()) await cannon(`${s.base}${p}`, (s.creds ?? sqlite.creds)[kind], 1000);
  for (const [name, p, kind] of cases) {
    const runs = new Map(targets().map((s) => [s, []]));
    for (let r = 0; r < rounds; r++) {
      const order = [...runs.keys()];
      for (let i = 0; i < r % order.length; i++) order.push(order.shift());
      // The bare endpoint reads the user named by the Basic header whatever the credentials.
      for (const s of order) runs.get(s).push(await cpuPerRequest(s, p, (s.creds ?? sqlite.creds)[kind === 'token' && s === bare ? 'basic' : kind]));
    }
    const us = new Map([...runs].map(([s, xs]) => [s.name, xs[0].map((_, i) => median(xs.map((x) => x[i])))]));
    const total = (n) => us.get(n).reduce((a, b) => a + b, 0);
    const line = [...us].map(([n, parts]) => `${n} ${total(n).toFixed(0)}${parts.length > 1 ? ` (node ${parts[0].toFixed(0)} + postgres ${parts[1].toFixed(0)})` : ''}`).join(', ');
    console.log(`${name}: µs CPU per request: ${line}`);
    for (const suffix of ['', ...(before ? [' before'] : [])]) {
      if (!us.has(`postgres${suffix}`)) continue;
      const [rs, rp] = [total(`sqlite${suffix}`) / total('bare'), total(`postgres${suffix}`) / total('bare')];
      console.log(`  to bare${suffix}: sqlite ${rs.toFixed(2)}x, postgres ${rp.toFixed(2)}x = ${(rp / rs).toFixed(2)}x (goal within 1.5x)`);
    }
    console.log(`  passport's share: ${((1 - total('sqlite, direct auth') / total('sqlite')) * 100).toFixed(1)}% of hearth's CPU (sqlite ${total('sqlite').toFixed(0)} vs direct ${total('sqlite, direct auth').toFixed(0)} µs)`);
  }
} finally {
  for (const child of started) child.kill('SIGTERM');
  for (const c of clusters) c.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
