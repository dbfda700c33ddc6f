/* eslint-disable @typescript-eslint/no-require-imports */
import { Worker, parentPort, type ResourceLimits } from 'node:worker_threads';
import { readPayloadFile } from './sea-payload';

// CPU-heavy work (decoding a 4096-pixel image takes a second or more in JavaScript) runs on a
// worker thread, one job at a time, so the event loop keeps answering requests meanwhile and
// concurrent jobs never hold their memory at once. The worker starts on first use, is stopped
// after a while without work (its heap goes back to the system) and is replaced when it dies.

export type SerialWorkerOptions = {
  /** The worker's code: `<name>.cjs` packed in the executable (build.mjs), else bundled from `entry`. */
  name: string;
  /** Absolute path of the worker's TypeScript entry in the source tree. */
  entry: string;
  workerData?: () => unknown;
  resourceLimits?: ResourceLimits;
  /** A job running longer is abandoned and the worker replaced. */
  timeoutMs: number;
  idleMs: number;
  /** Jobs waiting beyond this are refused at once (WorkerBusyError). */
  maxWaiting: number;
};

/** Why a job did not produce a result: its own error (name kept), a timeout, a crash or a full queue. */
export class WorkerJobError extends Error {
  constructor(message: string, readonly reason: 'failed' | 'timeout' | 'crashed' | 'busy', readonly errorName = 'Error') {
    super(message);
  }
}

type Job = { input: unknown; resolve: (v: unknown) => void; reject: (e: Error) => void };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; name: string };

export class SerialWorker<In, Out> {
  private worker: Worker | null = null;
  private readonly waiting: Job[] = [];
  private current: { id: number; job: Job; timer: NodeJS.Timeout } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;

  constructor(private readonly opts: SerialWorkerOptions) {}

  run(input: In): Promise<Out> {
    if (this.waiting.length >= this.opts.maxWaiting) {
      return Promise.reject(new WorkerJobError(`${this.waiting.length} jobs already wait`, 'busy'));
    }
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve: resolve as (v: unknown) => void, reject });
      this.next();
    });
  }

  /** Stops the worker (tests, shutdown); waiting jobs fail. */
  async close(): Promise<void> {
    for (const job of this.waiting.splice(0)) job.reject(new WorkerJobError('worker closed', 'crashed'));
    const stopped = this.stop();
    this.fail(new WorkerJobError('worker closed', 'crashed'));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await stopped;
  }

  private next(): void {
    if (this.current || !this.waiting.length) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const job = this.waiting.shift()!;
    const id = this.nextId++;
    const timer = setTimeout(() => {
      // Detached first, so the next job gets a new worker, not this busy one.
      void this.stop();
      this.fail(new WorkerJobError(`no result within ${this.opts.timeoutMs} ms`, 'timeout'));
    }, this.opts.timeoutMs);
    this.current = { id, job, timer };
    this.ensureWorker().postMessage({ id, input: job.input });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource(this.opts.name, this.opts.entry), {
      eval: true, workerData: this.opts.workerData?.(), resourceLimits: this.opts.resourceLimits,
    });
    // A waiting job's promise is what keeps a caller alive, never the idle thread.
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (err) => this.dead(worker, err.message));
    worker.on('exit', (code) => this.dead(worker, `exited with code ${code}`));
    return (this.worker = worker);
  }

  private settle(reply: Reply): void {
    if (!this.current || reply.id !== this.current.id) return;
    const { job, timer } = this.current;
    clearTimeout(timer);
    this.current = null;
    if (reply.ok) job.resolve(reply.value);
    else job.reject(new WorkerJobError(reply.message, 'failed', reply.name));
    this.afterJob();
  }

  private dead(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.fail(new WorkerJobError(`the worker stopped: ${why}`, 'crashed'));
  }

  private fail(err: WorkerJobError): void {
    if (!this.current) return;
    clearTimeout(this.current.timer);
    const { job } = this.current;
    this.current = null;
    job.reject(err);
    this.afterJob();
  }

  private afterJob(): void {
    if (this.waiting.length) return this.next();
    this.idleTimer = setTimeout(() => void this.stop(), this.opts.idleMs);
    this.idleTimer.unref();
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

/** The worker's side: answers each posted job with `handle`'s result or its error. */
export function serveJobs(handle: (input: never) => unknown): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', ({ id, input }: { id: number; input: never }) => {
    try {
      port.postMessage({ id, ok: true, value: handle(input) });
    } catch (err) {
      const e = err as Error;
      port.postMessage({ id, ok: false, message: String(e?.message ?? err), name: String(e?.name ?? 'Error') });
    }
  });
}

const bundled = new Map<string, string>();

/**
 * The executable carries each worker bundled by build.mjs; from the source tree (tests,
 * `npm start`) the entry is bundled here on first use, with the build's own bundler.
 */
function workerSource(name: string, entry: string): string {
  const packed = readPayloadFile(`${name}.cjs`);
  if (packed) return packed.toString('utf8');
  const cached = bundled.get(entry);
  if (cached) return cached;
  // A name in a variable: the executable's bundle must not take the bundler in.
  const bundlerName = 'esbuild';
  const esbuild = require(bundlerName) as typeof import('esbuild');
  const out = esbuild.buildSync({
    entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent',
  });
  const text = out.outputFiles[0]!.text;
  bundled.set(entry, text);
  return text;
}
