import type { DB } from '../../db/connect';
import type { Job } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import { countJob } from '../metrics/registry';
import { claimJob, deleteFailedJobsBefore, deleteJob, dueJobs, failJob, insertJob, nextRunAt, requeueRunning, retryJob } from '../../models/job';
import { runAsActor, SYSTEM_ACTOR } from '../audit/actor';
import type { JobKindName, JobPayloads } from './payloads';
import type { ClusterQueue } from './postgres-queue';
import { dialectOf } from '../../db/dialect';
import { afterCommit } from '../../db/commit-hooks';

// The durable job queue: work that may be slow or must survive a crash (webhook deliveries,
// scheduled merges) is a row in the job table, inserted in the transaction of the change that
// caused it, and run by a small pool of in-process workers. A job a crash cut short runs again
// after the restart; a failed one is retried with exponential backoff up to its maximum; jobs
// of one key (a hook, a repository) run one at a time, in order. On PostgreSQL several nodes
// share the table: postgres-queue.ts claims under leases instead (a crash's jobs run again once
// their lease runs out, on any node, rather than when this node restarts).

/**
 * `signal` aborts when this node lost the job's lease (PostgreSQL): another node may be running
 * it now, so a handler that can stop (an HTTP request) stops, and records nothing more.
 * `holdsLease(trx)`, called first in the transaction that records the job's outcome, fences that
 * write: true while this node still holds the job (on PostgreSQL the lease is renewed and the row
 * stays locked until the transaction ends, so no sweep takes it meanwhile); false once it lost it
 * (the signal aborts then). Always true on SQLite, where one process runs the jobs.
 */
export type JobContext = {
  db: DB; log: Logger; attempt: number; maxAttempts: number; jobId: number; signal: AbortSignal; holdsLease: (trx: DB) => Promise<boolean>;
};
export type JobHandler<K extends JobKindName = JobKindName> = (payload: JobPayloads[K], ctx: JobContext) => Promise<void>;
export type JobKind<K extends JobKindName = JobKindName> = {
  handler: JobHandler<K>;
  /** Seconds before the first retry; each next one waits twice as long (capped at an hour). */
  backoff: () => number;
};

/** A handler throws this to be tried again (after the backoff) while attempts remain. */
export class RetryableError extends Error {}

export type JobSpec<K extends JobKindName = JobKindName> = { kind: K; key?: string; payload: JobPayloads[K]; maxAttempts?: number; delayMs?: number };

const MAX_BACKOFF_MS = 3_600_000;
/** On PostgreSQL a node polls at least this often: another node's job, should its NOTIFY be lost. */
const CLUSTER_POLL_MS = 10_000;

/** `leaseMs`: how long a claim holds on PostgreSQL unless renewed; `url`: where to LISTEN for other nodes' jobs. */
export type QueueOptions = { nodeId?: string; leaseMs?: number; url?: string };
/** How long a job that failed for good stays in the table. */
export const FAILED_KEPT_MS = 7 * 24 * 3_600_000;

/**
 * Adds a job. `db` may be a transaction: the job then exists only if the transaction commits,
 * and the workers are woken once it has (a worker's query on another connection would not see
 * it before; on PostgreSQL the INSERT's NOTIFY goes out at the commit too).
 */
export async function enqueueJob<K extends JobKindName>(db: DB, spec: JobSpec<K>): Promise<number> {
  const now = Date.now();
  const id = await insertJob(db, {
    kind: spec.kind, key: spec.key ?? '', payload: JSON.stringify(spec.payload ?? {}),
    runAt: now + (spec.delayMs ?? 0), maxAttempts: spec.maxAttempts ?? 1, now,
  });
  await afterCommit(db, wake, 'job queue wake-up');
  return id;
}

// One queue per process in practice; tests start several servers, each with its own.
const running = new Set<JobQueue>();
function wake(): void {
  for (const q of running) q.poke();
}

export class JobQueue {
  private kinds = new Map<string, JobKind<never>>();
  private busyKeys = new Map<string, number>();
  /** Jobs this node runs now, the lost-lease ones until they stop (a claim skips them). */
  private runningIds = new Set<number>();
  private active = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  private stopped = true;
  private cluster: ClusterQueue | null = null;
  readonly nodeId: string;

  constructor(private db: DB, private log: Logger, private workers: number, private opts: QueueOptions = {}) {
    this.nodeId = opts.nodeId ?? crypto.randomUUID();
  }

  register<K extends JobKindName>(kind: K, def: JobKind<K>): void {
    this.kinds.set(kind, def as unknown as JobKind<never>);
  }

  private loadKinds: (() => Promise<void>) | null = null;

  /** Kinds that `load` registers: loaded when the first job is due, not at start. */
  registerOnFirstJob(load: () => Promise<void>): void {
    this.loadKinds = load;
  }

  /** Jobs a crash left running are pending again (on PostgreSQL: those whose lease ran out); then the workers start. */
  async start(): Promise<void> {
    if (dialectOf(this.db).engine === 'postgres') {
      const { startClusterQueue } = await import('./postgres-queue');
      this.cluster = await startClusterQueue({
        db: this.db, log: this.log, nodeId: this.nodeId, leaseMs: this.opts.leaseMs ?? 60_000, url: this.opts.url, poke: () => this.poke(),
      });
    } else {
      const requeued = await requeueRunning(this.db);
      if (requeued) this.log.info({ jobs: requeued }, 'jobs interrupted by a stop run again');
    }
    this.stopped = false;
    running.add(this);
    this.poke();
  }

  /** Takes no new job; waits for the running ones (they finish or fail as they would). */
  async stop(): Promise<void> {
    this.stopped = true;
    running.delete(this);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A tick under way may still claim and launch a job (its queries are real waits on
    // PostgreSQL): it ends first, then the jobs it started.
    await this.lastTick;
    while (this.active.size) await Promise.allSettled([...this.active]);
    await this.cluster?.stop();
    this.cluster = null;
  }

  /** Runs a tick soon: a job was added or a worker freed. */
  poke(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { void this.tick(); }, 0);
  }

  private lastTick: Promise<void> = Promise.resolve();

  private tick(): Promise<void> {
    this.lastTick = this.tickOnce();
    return this.lastTick;
  }

  private async tickOnce(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    this.ticking = true;
    try {
      const free = this.workers - this.active.size;
      if (free > 0 && this.cluster) {
        // Claimed already: they run, stopping or not (a stop waits for them).
        const jobs = await this.cluster.claim(free, Date.now(), [...this.runningIds]);
        if (jobs.length) await this.ensureKinds();
        for (const job of jobs) this.launch(job);
      } else if (free > 0) {
        const jobs = await dueJobs(this.db, Date.now(), free, [...this.busyKeys.keys()]);
        if (jobs.length) await this.ensureKinds();
        for (const job of jobs) if (!this.stopped && (await this.take(job))) this.launch(job);
      }
      await this.sleepUntilNext();
    } catch (err) {
      this.log.error({ err }, 'job queue tick failed');
      this.timer = setTimeout(() => { void this.tick(); }, 1000);
    } finally {
      this.ticking = false;
      if (this.again) {
        this.again = false;
        this.poke();
      }
    }
  }

  private async ensureKinds(): Promise<void> {
    if (!this.loadKinds) return;
    await this.loadKinds();
    this.loadKinds = null;
  }

  /**
   * Wakes when the next job is due (at most a minute later: a lost poke costs no more). Due
   * jobs that wait behind a busy key or a full pool are started by the poke of a finishing worker.
   */
  private async sleepUntilNext(): Promise<void> {
    if (this.stopped) return;
    const at = await nextRunAt(this.db);
    // Another node's jobs (behind a key it holds, or added while a NOTIFY was lost) are polled for.
    const cap = this.cluster ? CLUSTER_POLL_MS : 60_000;
    if (at === null && !this.cluster) return;
    const wait = at === null ? cap : at - Date.now();
    if (wait <= 0 && this.active.size) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { void this.tick(); }, Math.min(cap, Math.max(wait, 50)));
    this.timer.unref();
  }

  private async take(job: Job): Promise<boolean> {
    if (job.key && this.busyKeys.has(job.key)) return false;
    if (!(await claimJob(this.db, job.id, Date.now()))) return false;
    if (job.key) this.busyKeys.set(job.key, job.id);
    return true;
  }

  private launch(job: Job): void {
    this.runningIds.add(job.id);
    const p = this.run(job).finally(() => {
      this.active.delete(p);
      this.runningIds.delete(job.id);
      if (job.key) this.busyKeys.delete(job.key);
      this.poke();
    });
    this.active.add(p);
  }

  private async run(job: Job): Promise<void> {
    const cluster = this.cluster;
    const lease = new AbortController();
    const lose = () => lease.abort(new Error('job lease lost'));
    const release = cluster?.hold(job, lose);
    const holdsLease = async (trx: DB) => {
      const held = !cluster || (await cluster.renew(trx, job));
      if (!held) lose();
      return held;
    };
    try {
      await this.runOnce(job, cluster ? this.nodeId : undefined, { signal: lease.signal, holdsLease });
    } finally {
      release?.();
    }
    await cluster?.ended(job).catch((err: unknown) => this.log.warn({ err }, 'job end not announced'));
  }

  private async runOnce(job: Job, owner: string | undefined, lease: Pick<JobContext, 'signal' | 'holdsLease'>): Promise<void> {
    const kind = this.kinds.get(job.kind);
    // A claimed row counts its attempt already (SQLite's rows were read before their claim).
    const attempt = owner !== undefined ? job.attempts : job.attempts + 1;
    if (!kind) {
      await failJob(this.db, job.id, `no handler for job kind ${job.kind}`, owner);
      this.log.error({ job: job.id, kind: job.kind }, 'job of an unknown kind');
      return;
    }
    try {
      // Jobs act as the system, not as the request whose wake() happened to start the worker.
      // The payload was written by enqueueJob for this kind: its shape is the map's.
      const ctx: JobContext = { db: this.db, log: this.log, attempt, maxAttempts: job.max_attempts, jobId: job.id, ...lease };
      await runAsActor(SYSTEM_ACTOR, () => kind.handler(JSON.parse(job.payload) as never, ctx));
      // Still under this node's lease (owner), or another node's now: then the row is left to it.
      await deleteJob(this.db, job.id, owner);
      countJob(job.kind, 'success');
    } catch (err) {
      if (lease.signal.aborted) await this.interrupted(job, owner);
      else await this.failed(job, kind, attempt, err, owner);
    }
  }

  /**
   * The handler stopped because the lease was lost: not a failure of the job's. A row still under
   * this node's lease (no renewal got through, but none was refused) is pending again at once;
   * one another node took back is that node's.
   */
  private async interrupted(job: Job, owner: string | undefined): Promise<void> {
    await retryJob(this.db, job.id, Date.now(), 'job lease lost', owner);
    this.log.warn({ job: job.id, kind: job.kind }, 'job stopped: its lease was lost');
  }

  private async failed(job: Job, kind: JobKind<never>, attempt: number, err: unknown, owner: string | undefined): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof RetryableError && attempt < job.max_attempts) {
      const delay = Math.min(MAX_BACKOFF_MS, kind.backoff() * 1000 * 2 ** (attempt - 1));
      await retryJob(this.db, job.id, Date.now() + delay, message, owner);
      countJob(job.kind, 'retry');
      this.log.info({ job: job.id, kind: job.kind, attempt, retryInMs: delay, reason: message }, 'job will be retried');
      return;
    }
    await failJob(this.db, job.id, message, owner);
    // Kept a week for the statistics and a look at last_error, then dropped: a webhook whose
    // receiver is gone for good fails once per event, for as long as the server runs.
    await deleteFailedJobsBefore(this.db, Date.now() - FAILED_KEPT_MS);
    countJob(job.kind, 'failed');
    this.log.warn({ job: job.id, kind: job.kind, attempt, err: message }, 'job failed');
  }
}
