// The runner loop, shared by `hearth runner daemon` and the server's embedded runner: Declare,
// then FetchTask with the tasks version (cheap for the server when nothing changed) every
// IDLE_MS while there is capacity, each task executed in the background; errors back off.

import fs from 'node:fs';
import { RunnerClient } from './client';
import { executeTask } from './execute';
import { defaultWorkDir, labelName } from './runner-file';
import type { RunnerTask } from './types';

export interface RunnerOptions {
  instance: string;
  uuid: string;
  token: string;
  name: string;
  labels: string[];
  capacity?: number;
  workDir?: string;
  idleMs?: number;
  /** Take one task, then stop. */
  ephemeral?: boolean;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface RunningRunner {
  /** Cancels running tasks, waits for them to report, and stops fetching. */
  stop(): Promise<void>;
  /** Settles when the loop ended: stopped, or an ephemeral runner's one task done. */
  readonly done: Promise<void>;
  /** Tasks finished so far. */
  readonly finished: number;
}

const IDLE_MS = 250;
const MAX_BACKOFF_MS = 10_000;

class RunnerLoop {
  readonly stopping = new AbortController();
  readonly running = new Set<Promise<unknown>>();
  finished = 0;
  private version = 0n;
  private wake: (() => void) | null = null;

  constructor(
    private readonly client: RunnerClient, private readonly opts: RunnerOptions, private readonly workDir: string,
    private readonly log: NonNullable<RunnerOptions['log']>,
  ) {}

  sleep(ms: number): Promise<void> {
    return new Promise<void>((r) => {
      const t = setTimeout(() => { this.wake = null; r(); }, ms);
      this.wake = () => { clearTimeout(t); this.wake = null; r(); };
    });
  }

  interrupt(): void {
    this.wake?.();
  }

  async run(): Promise<void> {
    const idle = this.opts.idleMs ?? IDLE_MS;
    const capacity = Math.max(1, this.opts.capacity ?? 1);
    let backoff = idle;
    let started = 0;
    while (!this.stopping.signal.aborted && !(this.opts.ephemeral && started > 0)) {
      if (this.running.size >= capacity) {
        await Promise.race(this.running);
        continue;
      }
      try {
        const got = await this.client.fetchTask(this.version, this.stopping.signal);
        this.version = got.version;
        backoff = idle;
        if (got.task) {
          started++;
          this.start(got.task);
        } else {
          await this.sleep(idle);
        }
      } catch (err) {
        if (this.stopping.signal.aborted) break;
        this.log('fetching a task failed', { err: (err as Error).message });
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
    await Promise.allSettled([...this.running]);
  }

  private start(task: RunnerTask): void {
    this.log('task started', { task: task.id });
    const p = executeTask(task, this.client, { workDir: this.workDir, runnerName: this.opts.name, signal: this.stopping.signal })
      .then((result) => this.log('task finished', { task: task.id, result }))
      .catch((err: unknown) => this.log('task crashed', { task: task.id, err: String(err) }))
      .finally(() => { this.finished++; this.running.delete(p); this.wake?.(); });
    this.running.add(p);
  }
}

export async function startRunner(opts: RunnerOptions): Promise<RunningRunner> {
  const client = new RunnerClient(opts.instance, { uuid: opts.uuid, token: opts.token });
  await client.declare(opts.labels.map(labelName));
  const workDir = opts.workDir ?? defaultWorkDir();
  fs.mkdirSync(workDir, { recursive: true });
  const loop = new RunnerLoop(client, opts, workDir, opts.log ?? (() => undefined));
  const done = loop.run();
  return {
    async stop() {
      loop.stopping.abort();
      loop.interrupt();
      await done;
    },
    done,
    get finished() { return loop.finished; },
  };
}
