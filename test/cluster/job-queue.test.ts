import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { closeHearth, type Hearth } from '../../src/hearth';
import { insertJob } from '../../src/models/job';
import { enqueueJob } from '../../src/services/jobs/queue';
import { clusterEnv, freshDatabase, openNode } from '../helpers/cluster';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { eventually } from '../helpers/wait';

// The durable job queue with two nodes on one PostgreSQL database: every job runs exactly once,
// one key's jobs in order; a NOTIFY wakes the other node; a killed node's job runs again on the
// other once its lease runs out. Each test has a database of its own on one throwaway cluster.

declare module '../../src/services/jobs/payloads' {
  interface JobPayloads { tally: { n: number }; hang: Record<string, never>; leased: Record<string, never>; noop: Record<string, never> }
}

let server: TempPostgres;
let counter = 0;
let nodes: Hearth[] = [];

beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());
afterEach(async () => {
  for (const h of nodes) {
    await h.jobs.stop();
    await closeHearth(h);
  }
  nodes = [];
});

async function cluster(count: number, env: Record<string, string> = {}): Promise<{ url: string; nodes: Hearth[] }> {
  const url = await freshDatabase(server, `jobs_${process.pid}_${++counter}`);
  const made: Hearth[] = [];
  for (let i = 0; i < count; i++) made.push(await openNode(url, env));
  nodes.push(...made);
  return { url, nodes: made };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const remaining = async (h: Hearth) => Number((await h.db.selectFrom('job').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

withPostgres('job queue on two nodes over one PostgreSQL', () => {
  it('drains N jobs: each runs exactly once, on both nodes, and each key\'s jobs in order', async () => {
    const { nodes: [a, b] } = await cluster(2);
    const N = 300;
    const ran: { n: number; node: string }[] = [];
    for (const h of [a!, b!]) {
      h.jobs.register('tally', { backoff: () => 1, handler: async (p) => { ran.push({ n: p.n, node: h.nodeId }); await pause(Math.random() * 4); } });
    }
    // Keys k0..k9 for most, none for every fifth: unkeyed jobs run in any order.
    const keyOf = (n: number) => (n % 5 === 0 ? '' : `k${n % 10}`);
    for (let n = 0; n < N; n++) await enqueueJob(a!.db, { kind: 'tally', key: keyOf(n), payload: { n } });
    await Promise.all([a!.jobs.start(), b!.jobs.start()]);
    await eventually(async () => (await remaining(a!)) === 0, 60_000, 'all jobs done');
    expect(ran.map((r) => r.n).sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, n) => n));
    expect(new Set(ran.map((r) => r.node))).toEqual(new Set([a!.nodeId, b!.nodeId]));
    for (let k = 0; k < 10; k++) {
      const order = ran.map((r) => r.n).filter((n) => keyOf(n) === `k${k}`);
      expect(order, `key k${k}`).toEqual([...order].sort((x, y) => x - y));
      if (k % 5 !== 0) expect(order.length).toBe(N / 10);
    }
  });

  it('wakes the other node through NOTIFY, well before its poll', async () => {
    const { nodes: [a, b] } = await cluster(2);
    const ran: number[] = [];
    b!.jobs.register('tally', { backoff: () => 1, handler: async (p) => { ran.push(p.n); } });
    await b!.jobs.start();
    // Let b's first poll pass: from here only a wake-up brings it back within the poll's 10 s.
    await pause(300);
    const now = Date.now();
    // The model's insert, not enqueueJob: no in-process poke, only the database's NOTIFY reaches b.
    await a!.db.transaction().execute((trx) => insertJob(trx, { kind: 'tally', key: '', payload: '{"n":7}', runAt: now, maxAttempts: 1, now }));
    const took = await eventually(async () => ran.length === 1, 8_000, 'job run by the other node');
    expect(ran).toEqual([7]);
    expect(took).toBeLessThan(5_000);
  });

  it('runs the job of a killed node again on the other, once its lease runs out', async () => {
    const { url, nodes: [b] } = await cluster(1, { HEARTH__QUEUE__LEASE: '2' });
    const worker = startWorker(url, { HEARTH__QUEUE__LEASE: '2' });
    try {
      await worker.waitFor(/ready/);
      const id = await enqueueJob(b!.db, { kind: 'hang', key: 'k', payload: {} });
      await enqueueJob(b!.db, { kind: 'tally', key: 'k', payload: { n: 2 } });
      await worker.waitFor(new RegExp(`claimed ${id}`));
      const claimed = await b!.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(claimed.state).toBe('running');
      expect(claimed.locked_by).not.toBe(b!.nodeId);
      expect(claimed.locked_by).not.toBe('');
      process.kill(worker.child.pid!, 'SIGKILL');
      const ran: string[] = [];
      b!.jobs.register('hang', { backoff: () => 1, handler: async (_p, ctx) => { ran.push(`hang ${ctx.attempt}`); } });
      b!.jobs.register('tally', { backoff: () => 1, handler: async (p) => { ran.push(`tally ${p.n}`); } });
      await b!.jobs.start();
      // Not before the lease ran out: the killed node's claim still holds for up to 2 s.
      await eventually(async () => (await remaining(b!)) === 0, 20_000, 'the killed node\'s job run again');
      expect(ran).toEqual(['hang 2', 'tally 2']);
    } finally {
      try { process.kill(worker.child.pid!, 'SIGKILL'); } catch { /* gone */ }
    }
  }, 60_000);

  // A node that is alive but lost a running job's lease (another node's sweep took it back after
  // a stall, or its renewals cannot get through) must not keep running the job beside the node
  // that runs it next: the job's signal aborts, and the row is left to whoever holds it.
  it('aborts a running job whose lease was taken back, and runs it again once, after', async () => {
    const { nodes: [a] } = await cluster(1, { HEARTH__QUEUE__LEASE: '2' });
    const ran: string[] = [];
    a!.jobs.register('leased', { backoff: () => 1, handler: leasedHandler(ran) });
    a!.jobs.register('noop', { backoff: () => 1, handler: async () => {} });
    await a!.jobs.start();
    const id = await enqueueJob(a!.db, { kind: 'leased', payload: {} });
    await eventually(async () => ran.includes('1 started'), 10_000, 'first run started');
    // What another node's sweep does to an expired lease.
    await a!.db.updateTable('job').set({ state: 'pending', locked_by: '', lease_until: 0 }).where('id', '=', id).execute();
    // A new job wakes the node at once, before its renewal finds the lease gone: it must not
    // start the job again while its own first run still goes on.
    await enqueueJob(a!.db, { kind: 'noop', payload: {} });
    await eventually(async () => (await remaining(a!)) === 0, 15_000, 'job run again and done');
    expect(ran).toEqual(['1 started', '1 aborted', '2 started', '2 done']);
  }, 60_000);

  it('aborts a running job when no lease renewal gets through for a whole lease, and hands the row back', async () => {
    const { nodes: [a, other] } = await cluster(2, { HEARTH__QUEUE__LEASE: '2' });
    const ran: string[] = [];
    a!.jobs.register('leased', { backoff: () => 1, handler: leasedHandler(ran) });
    await a!.jobs.start();
    const id = await enqueueJob(a!.db, { kind: 'leased', payload: {} });
    await eventually(async () => ran.includes('1 started'), 10_000, 'first run started');
    // The row locked from another connection: a's renewals wait, none gets through.
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const locking = other!.db.transaction().execute(async (trx) => {
      await trx.selectFrom('job').select('id').where('id', '=', id).forUpdate().execute();
      await held;
    });
    const since = Date.now();
    await eventually(async () => ran.includes('1 aborted'), 10_000, 'run aborted');
    expect(Date.now() - since).toBeLessThan(4_000);
    release();
    await locking;
    await eventually(async () => (await remaining(a!)) === 0, 15_000, 'job run again and done');
    expect(ran).toEqual(['1 started', '1 aborted', '2 started', '2 done']);
  }, 60_000);
});

/** The first attempt waits for its lease to be lost; the next ones end at once. */
function leasedHandler(ran: string[]) {
  return async (_p: Record<string, never>, ctx: { attempt: number; signal: AbortSignal }) => {
    ran.push(`${ctx.attempt} started`);
    if (ctx.attempt === 1) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      ran.push(`${ctx.attempt} aborted`);
      ctx.signal.throwIfAborted();
    }
    ran.push(`${ctx.attempt} done`);
  };
}

const tsxLoader = pathToFileURL(path.join(__dirname, '../../node_modules/tsx/dist/loader.mjs')).href;

/** test/cluster/job-worker.ts in a process of its own, to be killed. */
function startWorker(url: string, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-worker-'));
  const child = spawn(process.execPath, ['--import', tsxLoader, path.join(__dirname, 'job-worker.ts'), dataDir], {
    env: { ...process.env, ...clusterEnv(url, env) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  return {
    child,
    waitFor: (re: RegExp) => eventually(async () => re.test(out), 30_000, `worker output ${re} (got: ${out})`),
  };
}
