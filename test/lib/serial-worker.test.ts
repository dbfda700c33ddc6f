import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SerialWorker, WorkerJobError, type SerialWorkerOptions } from '../../src/lib/serial-worker';

type Job = { kind: string; value?: number; ms?: number };
const workers: SerialWorker<Job, unknown>[] = [];
const make = (opts: Partial<SerialWorkerOptions> = {}) => {
  const w = new SerialWorker<Job, unknown>({
    name: 'test-worker-jobs', entry: path.join(__dirname, '..', 'fixtures', 'worker-jobs.ts'),
    timeoutMs: 10_000, idleMs: 10_000, maxWaiting: 4, ...opts,
  });
  workers.push(w);
  return w;
};
const failure = async (p: Promise<unknown>): Promise<WorkerJobError> => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(WorkerJobError);
  return err as WorkerJobError;
};
const threadOf = async (w: SerialWorker<Job, unknown>) => ((await w.run({ kind: 'echo', value: 1 })) as { threadId: number }).threadId;

afterEach(async () => { await Promise.all(workers.splice(0).map((w) => w.close())); });

describe('SerialWorker', () => {
  it('runs jobs on another thread, one at a time, in order', async () => {
    const w = make();
    const results = await Promise.all([1, 2, 3].map((value) => w.run({ kind: 'echo', value })));
    expect(results.map((r) => (r as { value: number }).value)).toEqual([2, 4, 6]);
    expect((results[0] as { threadId: number }).threadId).not.toBe(0);
  });

  it('keeps the event loop free while a job runs', async () => {
    const w = make();
    await w.run({ kind: 'echo', value: 0 }); // the thread is up
    const job = w.run({ kind: 'spin', ms: 600 });
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    expect(Date.now() - t0).toBeLessThan(300);
    expect(await job).toBe('spun');
  });

  it('hands back a job\'s own error with its name, and the thread goes on', async () => {
    const w = make();
    const err = await failure(w.run({ kind: 'throw' }));
    expect([err.reason, err.errorName, err.message]).toEqual(['failed', 'FixtureError', 'refused by the job']);
    expect(((await w.run({ kind: 'echo', value: 5 })) as { value: number }).value).toBe(10);
  });

  it('abandons a job past its time and replaces the thread for the next one', async () => {
    const w = make({ timeoutMs: 300 });
    const before = await threadOf(w);
    const slow = w.run({ kind: 'spin', ms: 5_000 });
    const next = w.run({ kind: 'echo', value: 2 });
    expect((await failure(slow)).reason).toBe('timeout');
    const after = (await next) as { value: number; threadId: number };
    expect(after.value).toBe(4);
    expect(after.threadId).not.toBe(before);
  });

  it('survives a thread that dies or runs out of memory', async () => {
    const w = make({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    expect((await failure(w.run({ kind: 'exit' }))).reason).toBe('crashed');
    expect((await failure(w.run({ kind: 'grow' }))).reason).toBe('crashed');
    expect(((await w.run({ kind: 'echo', value: 3 })) as { value: number }).value).toBe(6);
  });

  it('refuses jobs beyond the waiting limit at once', async () => {
    const w = make({ maxWaiting: 2 });
    const running = w.run({ kind: 'spin', ms: 400 });
    const queued = [w.run({ kind: 'echo', value: 1 }), w.run({ kind: 'echo', value: 2 })];
    expect((await failure(w.run({ kind: 'echo', value: 3 }))).reason).toBe('busy');
    await Promise.all([running, ...queued]);
  });

  it('stops an idle thread and starts a new one for the next job', async () => {
    const w = make({ idleMs: 100 });
    const first = await threadOf(w);
    expect(await threadOf(w)).toBe(first);
    await new Promise((r) => setTimeout(r, 400));
    expect(await threadOf(w)).not.toBe(first);
  });
});
