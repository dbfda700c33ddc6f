// The job queue on PostgreSQL with one node and with two (issue 35): N jobs (most of them keyed,
// over 50 keys) drained by one Hearth handle, then by two on one database, in one run on a
// throwaway cluster. Prints jobs/s for each, the ratio of two nodes to one, and the duplicate
// runs and per-key order breaks, which must both be 0. Each node runs [queue] workers = 4.
// Usage: npx tsx bench/cluster-jobs.mjs [jobs=2000] [rounds=3]
import { sql } from 'kysely';
import { closeHearth } from '../src/hearth';
import { enqueueJob } from '../src/services/jobs/queue';
import { freshDatabase, openNode } from '../test/helpers/cluster';
import { startPostgres } from './postgres.mjs';

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);
const keyOf = (n) => (n % 4 === 0 ? '' : `k${n % 50}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let databases = 0;

/** Jobs/s of `count` nodes draining N jobs; throws nothing on duplicates: they are counted. */
async function drain(server, count) {
  const url = await freshDatabase(server, `bench_${process.pid}_${++databases}`);
  const nodes = [];
  for (let i = 0; i < count; i++) nodes.push(await openNode(url, { HEARTH__LOG__LEVEL: 'silent' }));
  const ran = [];
  for (const h of nodes) h.jobs.register('tally', { backoff: () => 1, handler: async (p) => { ran.push(p.n); } });
  const db = nodes[0].db;
  for (let start = 0; start < N; start += 500) {
    await db.transaction().execute(async (trx) => {
      for (let n = start; n < Math.min(N, start + 500); n++) await enqueueJob(trx, { kind: 'tally', key: keyOf(n), payload: { n } });
    });
  }
  // The planner's statistics as autovacuum keeps them on a live table (a fresh table's say it is
  // empty, and the claim would then sort every pending row instead of walking its index).
  await sql`ANALYZE job`.execute(db);
  const t0 = performance.now();
  await Promise.all(nodes.map((h) => h.jobs.start()));
  while (ran.length < N) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - t0) / 1000;
  for (;;) {
    const left = await db.selectFrom('job').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    if (Number(left.n) === 0) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  for (const h of nodes) { await h.jobs.stop(); await closeHearth(h); }
  const duplicates = ran.length - new Set(ran).size;
  let orderBreaks = 0;
  const last = new Map();
  for (const n of ran) {
    const k = keyOf(n);
    if (k && (last.get(k) ?? -1) > n) orderBreaks++;
    if (k) last.set(k, n);
  }
  return { rate: N / seconds, duplicates, orderBreaks };
}

// bench/postgres.mjs's throwaway cluster; test/helpers/cluster.ts asks it for a URL per database.
const cluster = startPostgres();
const server = { url: (database = 'postgres') => cluster.urlOf(database), stop: () => cluster.stop() };
try {
  const one = [];
  const two = [];
  let duplicates = 0;
  let orderBreaks = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [list, count] of [[one, 1], [two, 2]]) {
      const res = await drain(server, count);
      list.push(res.rate);
      duplicates += res.duplicates;
      orderBreaks += res.orderBreaks;
    }
  }
  const [a, b] = [median(one), median(two)];
  console.log(`job queue on PostgreSQL, ${N} jobs, ${ROUNDS} rounds (medians)`);
  console.log(`  1 node : ${a.toFixed(0)} jobs/s`);
  console.log(`  2 nodes: ${b.toFixed(0)} jobs/s (${(b / a).toFixed(2)}x one node)`);
  console.log(`  duplicate runs: ${duplicates}, per-key order breaks: ${orderBreaks} (both must be 0)`);
  if (duplicates || orderBreaks) process.exitCode = 1;
} finally {
  server.stop();
}
