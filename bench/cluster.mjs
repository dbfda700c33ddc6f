// Several nodes under a mixed load (issue 35's last figure): requests/s of API reads, issue and
// comment creates, contents-API commits and git clones/fetches, through one node and through two,
// in one run, over one PostgreSQL (a throwaway cluster, bench/postgres.mjs). Both phases go
// through the same round-robin proxy (test/helpers/round-robin-proxy.ts, pinned to the first node
// for one node), so each pays the same hop. The nodes share one data directory. The phases alternate (one, two; then two, one) so the machine's drift falls on both. Then the check
// (bench/cluster-check.mjs): every created issue and comment exists once, counters equal counts,
// every commit is on its branch. Errors (non-2xx, connection errors, failed git) and problems
// must both be 0: the exit code is 1 otherwise. On a 2-core machine two nodes cannot double the
// throughput; the point is that they lose nothing and add no errors.
// Usage: npx tsx bench/cluster.mjs [seconds per phase=20] [clients=12] [rounds=2]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkNothingLost } from './cluster-check.mjs';
import { MIX, runPhase } from './cluster-load.mjs';
import { seed, startNode } from './cluster-nodes.mjs';
import { startPostgres } from './postgres.mjs';
import { startRoundRobinProxy } from '../test/helpers/round-robin-proxy';
import { cpuNs } from './web-lib.mjs';

const SECONDS = Number(process.argv[2] ?? 20);
const CLIENTS = Number(process.argv[3] ?? 12);
const ROUNDS = Number(process.argv[4] ?? 2);
const pct = (xs, p) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] : 0);

/** Phase results of one kind summed: operations per class over the seconds of all its phases. */
function sum(results) {
  const out = { seconds: 0, cpuMs: 0, classes: Object.fromEntries(MIX.map(([n]) => [n, { n: 0, ms: [] }])), errors: [] };
  for (const r of results) {
    out.seconds += r.seconds;
    out.cpuMs += r.cpuMs;
    out.errors.push(...r.errors);
    for (const [n, c] of Object.entries(r.classes)) { out.classes[n].n += c.n; out.classes[n].ms.push(...c.ms); }
  }
  return out;
}

function report(one, two) {
  const rate = (r, n) => r.classes[n].n / r.seconds;
  const total = (r) => Object.values(r.classes).reduce((t, c) => t + c.n, 0) / r.seconds;
  console.log(`${'operation'.padEnd(16)} ${'1 node req/s'.padStart(12)} ${'p50 ms'.padStart(7)} | ${'2 nodes req/s'.padStart(13)} ${'p50 ms'.padStart(7)} | ratio`);
  for (const [n] of MIX) {
    const [a, b] = [rate(one, n), rate(two, n)];
    console.log(`${n.padEnd(16)} ${a.toFixed(1).padStart(12)} ${pct(one.classes[n].ms, 0.5).toFixed(1).padStart(7)} | ${b.toFixed(1).padStart(13)} ${pct(two.classes[n].ms, 0.5).toFixed(1).padStart(7)} | ${(b / a).toFixed(2)}x`);
  }
  console.log(`${'all'.padEnd(16)} ${total(one).toFixed(1).padStart(12)} ${''.padStart(7)} | ${total(two).toFixed(1).padStart(13)} ${''.padStart(7)} | ${(total(two) / total(one)).toFixed(2)}x`);
  // CPU per operation holds on a loaded machine where req/s does not: time waiting for a core is not in it.
  const cpu = (r) => r.cpuMs / (total(r) * r.seconds);
  console.log(`hearth CPU ms per operation (all nodes, git children not counted): 1 node ${cpu(one).toFixed(1)}, 2 nodes ${cpu(two).toFixed(1)} (${(cpu(two) / cpu(one)).toFixed(2)}x)`);
  for (const [label, r] of [['1 node', one], ['2 nodes', two]]) {
    console.log(`errors through ${label}: ${r.errors.length} (must be 0)`);
    const kinds = new Map();
    for (const e of r.errors) kinds.set(`${e.op} ${e.status} ${e.text}`, (kinds.get(`${e.op} ${e.status} ${e.text}`) ?? 0) + 1);
    for (const [k, n] of [...kinds].slice(0, 10)) console.log(`  ${n}x ${k}`);
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-cluster-'));
const pgServer = startPostgres();
const nodes = [];
let proxy;
try {
  // One data directory for both nodes (the shared POSIX directory: repositories, blobs, the
  // instance key the first start wrote); the second starts once the first has seeded.
  const dataDir = path.join(tmp, 'data');
  const env = { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: pgServer.url };
  nodes.push(await startNode(dataDir, env));
  const world = await seed(nodes[0]);
  nodes.push(await startNode(dataDir, env));
  proxy = await startRoundRobinProxy(nodes.map((n) => n.base));
  const base = `${proxy.url}/`;
  const rec = { issues: [], comments: [], commits: [] };
  const nodesCpu = () => nodes.reduce((t, n) => t + (cpuNs(n.child.pid) ?? 0), 0);
  const phase = async (name, count) => {
    proxy.pin(count === 1 ? 0 : null);
    const cpu0 = nodesCpu();
    const r = await runPhase({ base, world, clients: CLIENTS, seconds: name === 'warm' ? 5 : SECONDS, phase: name, rec, gitRoot: path.join(tmp, 'clients') });
    return { ...r, cpuMs: (nodesCpu() - cpu0) / 1e6 };
  };
  // Both nodes warmed (JIT, statement caches, pools) before anything is timed.
  const warm = await phase('warm', 2);
  const results = { one: [], two: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['one', 'two'] : ['two', 'one'];
    for (const kind of order) results[kind].push(await phase(`${kind}${r}`, kind === 'one' ? 1 : 2));
  }
  console.log(`mixed load, ${CLIENTS} clients, ${ROUNDS} x ${SECONDS} s per setting (phases alternated), ${nodes[0].label} on PostgreSQL, through a round-robin proxy`);
  const [one, two] = [sum(results.one), sum(results.two)];
  report(one, two);
  // A 500 names its request id: the node's log line for it says what failed.
  for (const e of [...warm.errors, ...one.errors, ...two.errors]) {
    const id = /request id ([0-9a-f-]+)/.exec(e.text)?.[1];
    const line = id && nodes.flatMap((n) => n.out().split('\n')).find((l) => l.includes(id));
    if (line) console.log(`  log of ${id}: ${line.slice(0, 3000)}`);
  }
  if (warm.errors.length) console.log(`errors while warming: ${warm.errors.length}: ${warm.errors.slice(0, 3).map((e) => `${e.op} ${e.status} ${e.text}`).join('; ')}`);
  const problems = await checkNothingLost({ url: pgServer.url, reposRoot: path.join(dataDir, 'repositories'), world, rec });
  console.log(`made: ${rec.issues.length} issues, ${rec.comments.length} comments, ${rec.commits.length} commits; lost, doubled or miscounted: ${problems.length} (must be 0)`);
  for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
  if (one.errors.length || two.errors.length || warm.errors.length || problems.length) process.exitCode = 1;
} finally {
  await proxy?.close();
  for (const n of nodes) await n.stop();
  pgServer.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
