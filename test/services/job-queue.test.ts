import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import { enqueueJob, FAILED_KEPT_MS, JobQueue, RetryableError } from '../../src/services/jobs/queue';
import { quietLog, tempDatabase } from '../helpers/database';
import { eventually } from '../helpers/wait';

// The durable job queue over a migrated temp database: runs, retries with backoff, per-key
// order, jobs a crash left running, the end of attempts.

// This file's own job kinds, beside the product's (the queue takes kinds of this map only).
declare module '../../src/services/jobs/payloads' {
  interface JobPayloads {
    echo: { n: number }; flaky: Record<string, never>; broken: { n?: number }; bad: Record<string, never>;
    step: { key: string; n: number }; later: { x: number }; kept: Record<string, never>; woken: { n: number }; dropped: Record<string, never>; slow: Record<string, never>;
  }
}

let db: DB;
let close: () => Promise<void>;
let queues: JobQueue[] = [];

beforeEach(async () => {
  ({ db, close } = await tempDatabase());
});
afterEach(async () => {
  for (const q of queues) await q.stop();
  queues = [];
  await close();
});

function queue(workers = 4): JobQueue {
  const q = new JobQueue(db, quietLog(), workers);
  queues.push(q);
  return q;
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = () => db.selectFrom('job').selectAll().orderBy('id').execute();

describe('job queue', () => {
  it('runs a job once and deletes it', async () => {
    const q = queue();
    const seen: unknown[] = [];
    q.register('echo', { backoff: () => 0, handler: async (p) => { seen.push(p); } });
    await q.start();
    await enqueueJob(db, { kind: 'echo', payload: { n: 1 } });
    await eventually(async () => seen.length === 1);
    await eventually(async () => (await rows()).length === 0);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('retries a retryable failure with a growing delay, then succeeds', async () => {
    const q = queue();
    const at: number[] = [];
    q.register('flaky', {
      backoff: () => 0.05,
      handler: async () => {
        at.push(Date.now());
        if (at.length < 3) throw new RetryableError('not yet');
      },
    });
    await q.start();
    await enqueueJob(db, { kind: 'flaky', payload: {}, maxAttempts: 5 });
    await eventually(async () => at.length === 3 && (await rows()).length === 0);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(45);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(95);
  });

  it('stops after max attempts and keeps the job as failed with its error', async () => {
    const q = queue();
    let runs = 0;
    q.register('broken', { backoff: () => 0.01, handler: async () => { runs++; throw new RetryableError('receiver down'); } });
    await q.start();
    await enqueueJob(db, { kind: 'broken', payload: {}, maxAttempts: 3 });
    await eventually(async () => (await rows())[0]?.state === 'failed');
    const [job] = await rows();
    expect(runs).toBe(3);
    expect(job).toMatchObject({ attempts: 3, last_error: 'receiver down' });
  });

  it('drops jobs that failed for good more than a week ago when another one fails', async () => {
    const old = Date.now() - FAILED_KEPT_MS - 60_000;
    await db.insertInto('job').values([
      { kind: 'broken', key: '', payload: '{}', run_at: old, state: 'failed', max_attempts: 1, created_unix: 1 },
      { kind: 'broken', key: '', payload: '{}', run_at: Date.now() - 3_600_000, state: 'failed', max_attempts: 1, created_unix: 1 },
    ]).execute();
    const q = queue();
    q.register('broken', { backoff: () => 0, handler: async () => { throw new Error('still broken'); } });
    await q.start();
    await enqueueJob(db, { kind: 'broken', payload: { n: 3 }, maxAttempts: 1 });
    await eventually(async () => (await rows()).some((r) => r.payload === '{"n":3}' && r.state === 'failed'));
    expect((await rows()).map((r) => r.run_at > old)).toEqual([true, true]);
  });

  it('does not retry an error that is not retryable', async () => {
    const q = queue();
    let runs = 0;
    q.register('bad', { backoff: () => 0, handler: async () => { runs++; throw new Error('malformed'); } });
    await q.start();
    await enqueueJob(db, { kind: 'bad', payload: {}, maxAttempts: 5 });
    await eventually(async () => (await rows())[0]?.state === 'failed');
    expect(runs).toBe(1);
  });

  it('runs the jobs of one key one at a time, in order, and other keys beside them', async () => {
    const q = queue(4);
    const log: string[] = [];
    let inKey = 0;
    let maxInKey = 0;
    q.register('step', {
      backoff: () => 0,
      handler: async (p) => {
        const { key, n } = p;
        if (key === 'a') maxInKey = Math.max(maxInKey, ++inKey);
        await new Promise((r) => setTimeout(r, 10));
        if (key === 'a') inKey--;
        log.push(`${key}${n}`);
      },
    });
    for (let n = 0; n < 5; n++) await enqueueJob(db, { kind: 'step', key: 'a', payload: { key: 'a', n } });
    await enqueueJob(db, { kind: 'step', key: 'b', payload: { key: 'b', n: 0 } });
    await q.start();
    await eventually(async () => log.length === 6);
    expect(log.filter((l) => l.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(log.indexOf('b0')).toBeLessThan(4);
    expect(maxInKey).toBe(1);
  });

  it('runs again, at the next start, a job a crash left running', async () => {
    await enqueueJob(db, { kind: 'later', payload: { x: 1 } });
    await db.updateTable('job').set({ state: 'running', attempts: 1 }).execute();
    const q = queue();
    const seen: unknown[] = [];
    q.register('later', { backoff: () => 0, handler: async (p) => { seen.push(p); } });
    await q.start();
    await eventually(async () => seen.length === 1);
    expect(seen).toEqual([{ x: 1 }]);
  });

  it('keeps a job enqueued in a transaction only if the transaction commits', async () => {
    await db.transaction().execute(async (trx) => { await enqueueJob(trx, { kind: 'kept', payload: {} }); });
    await expect(db.transaction().execute(async (trx) => {
      await enqueueJob(trx, { kind: 'dropped', payload: {} });
      throw new Error('rollback');
    })).rejects.toThrow('rollback');
    expect((await rows()).map((r) => r.kind)).toEqual(['kept']);
  });

  // On PostgreSQL the workers query on another pool connection: woken before the commit they
  // would find nothing and sleep until their poll (10 s). This queue has no LISTEN connection,
  // so only the in-process wake-up can start the job within the second.
  it('wakes the workers once the transaction that enqueued a job commits, not before', async () => {
    const q = queue();
    const ran: number[] = [];
    q.register('woken', { backoff: () => 0, handler: async (p) => { ran.push(p.n); } });
    await q.start();
    await pause(300);
    await db.transaction().execute(async (trx) => {
      await enqueueJob(trx, { kind: 'woken', payload: { n: 1 } });
      // Long enough for a wake-up sent at the enqueue to have run its query and gone back to sleep.
      await pause(300);
      expect(ran).toEqual([]);
    });
    const committed = Date.now();
    await eventually(async () => ran.length === 1, 5_000, 'job run after the commit');
    expect(Date.now() - committed).toBeLessThan(1_000);
    expect(ran).toEqual([1]);
  });

  it('runs nothing when the transaction that enqueued a job rolls back', async () => {
    const q = queue();
    const ran: number[] = [];
    q.register('woken', { backoff: () => 0, handler: async (p) => { ran.push(p.n); } });
    await q.start();
    await expect(db.transaction().execute(async (trx) => {
      await enqueueJob(trx, { kind: 'woken', payload: { n: 2 } });
      throw new Error('rollback');
    })).rejects.toThrow('rollback');
    // A job committed after it runs: the queue is awake and the rolled-back one never existed.
    await enqueueJob(db, { kind: 'woken', payload: { n: 3 } });
    await eventually(async () => ran.length === 1 && (await rows()).length === 0, 5_000, 'committed job run');
    await pause(300);
    expect(ran).toEqual([3]);
  });

  it('waits for running jobs on stop and leaves the pending ones in the table', async () => {
    const q = queue(1);
    let finished = 0;
    q.register('slow', { backoff: () => 0, handler: async () => { await new Promise((r) => setTimeout(r, 100)); finished++; } });
    await q.start();
    await enqueueJob(db, { kind: 'slow', payload: {} });
    await enqueueJob(db, { kind: 'slow', payload: {} });
    await eventually(async () => (await rows()).some((r) => r.state === 'running'));
    await q.stop();
    expect(finished).toBe(1);
    expect((await rows()).map((r) => r.state)).toEqual(['pending']);
  });
});
