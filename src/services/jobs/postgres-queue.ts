import type pg from 'pg';
import type { DB } from '../../db/connect';
import type { Job } from '../../db/schema';
import type { Logger } from '../../lib/logger';

// The job queue's PostgreSQL side, loaded by JobQueue.start() only when the database is
// PostgreSQL: several nodes take jobs from one table. Each claim is one statement under a lease
// that the running node renews; any node hands back the jobs of leases that ran out (their node
// died), every SWEEP_MS or sooner for short leases; a NOTIFY (sent with each new job's INSERT and
// when a keyed job ends) wakes every node's LISTEN connection, and the poll stays as the fallback.

const SWEEP_MS = 30_000;
const RELISTEN_MS = 5_000;

export type ClusterQueueOptions = { db: DB; log: Logger; nodeId: string; leaseMs: number; url?: string; poke: () => void };

export type ClusterQueue = {
  /**
   * Claims up to `n` due jobs for this node, none of `running`: a job whose lease this node lost
   * and that is pending again goes to another node, or to this one once its own run has stopped.
   */
  claim(n: number, now: number, running: number[]): Promise<Job[]>;
  /**
   * Renews the job's lease while it runs; call the result when it ends. `lost` is called once
   * when the lease is gone or may be: another node took it back, or no renewal got through for
   * a whole lease (the database unreachable, this process stalled), so another node may run it.
   */
  hold(job: Job, lost: () => void): () => void;
  /** Renews the job's lease through `db` (a transaction: the row stays locked until it ends); false when lost. */
  renew(db: DB, job: Job): Promise<boolean>;
  /** A job ended: the jobs queued behind its key, on any node, may go. */
  ended(job: Job): Promise<void>;
  stop(): Promise<void>;
};

export async function startClusterQueue(o: ClusterQueueOptions): Promise<ClusterQueue> {
  const jobs = await import('../../db/postgres/jobs');
  const sweep = async () => {
    try {
      const n = await jobs.requeueExpiredLeases(o.db);
      if (n) {
        o.log.info({ jobs: n }, 'jobs whose node stopped renewing their lease run again');
        await jobs.notifyJobs(o.db, '');
      }
    } catch (err) {
      o.log.warn({ err }, 'job lease sweep failed');
    }
  };
  await sweep();
  const sweeper = setInterval(() => { void sweep(); }, Math.min(SWEEP_MS, o.leaseMs));
  sweeper.unref();
  // When each claimed job's lease was asked for (local monotonic ms), until its hold starts.
  const leasedAt = new Map<number, number>();
  // A node's own announcements are skipped: its workers' ends poke it already.
  const listener = o.url ? await listen(o.url, o.log, (from) => { if (from !== o.nodeId) o.poke(); }, jobs.JOBS_CHANNEL) : null;
  return {
    async claim(n, now, running) {
      const claimed: Job[] = [];
      while (claimed.length < n) {
        // Before the statement: the lease it grants ends no sooner than a lease from here.
        const asked = performance.now();
        const job = await jobs.claimNextJob(o.db, o.nodeId, now, o.leaseMs, running);
        if (!job) break;
        leasedAt.set(job.id, asked);
        claimed.push(job);
      }
      return claimed;
    },
    hold(job, lost) {
      const held = holdLease(o, jobs.renewLease, job, leasedAt.get(job.id) ?? performance.now(), lost);
      leasedAt.delete(job.id);
      return held;
    },
    renew: (db, job) => jobs.renewLease(db, job.id, o.nodeId, o.leaseMs),
    async ended(job) {
      if (job.key) await jobs.notifyJobs(o.db, o.nodeId);
    },
    async stop() {
      clearInterval(sweeper);
      await listener?.close();
    },
  };
}

type Renew = (db: DB, id: number, node: string, leaseMs: number) => Promise<boolean>;

/**
 * Renews a running job's lease every third of it. A renewal the database refuses (another node's
 * sweep took the job back) loses it; so does a whole lease without one that got through, counted
 * from when the last good one was sent (no later than the database's own expiry, after which
 * another node may take the job): the run this node still believes in stops before then.
 */
function holdLease(o: ClusterQueueOptions, renew: Renew, job: Job, since: number, lost: () => void): () => void {
  let confirmed = since;
  let gone = false;
  let deadline: NodeJS.Timeout | undefined;
  const end = () => {
    gone = true;
    clearInterval(timer);
    clearTimeout(deadline);
  };
  const lose = (why: string) => {
    if (gone) return;
    end();
    o.log.warn({ job: job.id, kind: job.kind, why }, 'job lease lost: another node may run it again');
    lost();
  };
  const arm = () => {
    clearTimeout(deadline);
    deadline = setTimeout(() => lose('no renewal got through for a whole lease'), Math.max(0, confirmed + o.leaseMs - performance.now()));
    deadline.unref();
  };
  const timer = setInterval(() => {
    const sent = performance.now();
    renew(o.db, job.id, o.nodeId, o.leaseMs).then((held) => {
      if (gone) return;
      if (!held) return lose('taken back');
      confirmed = Math.max(confirmed, sent);
      arm();
    }, (err: unknown) => o.log.warn({ err, job: job.id }, 'job lease renewal failed'));
  }, Math.max(100, Math.floor(o.leaseMs / 3)));
  timer.unref();
  arm();
  return end;
}

/** LISTENs on one dedicated connection, connecting again while the queue runs if it drops. */
async function listen(url: string, log: Logger, poke: (from: string) => void, channel: string): Promise<{ close: () => Promise<void> }> {
  const { openDedicatedClient } = await import('../../db/postgres/dedicated');
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    try {
      const c = await openDedicatedClient(url);
      if (closed) { await c.end().catch(() => undefined); return; }
      c.on('notification', (n) => poke(n.payload ?? ''));
      c.on('end', () => {
        if (closed) return;
        log.warn('job notifications connection lost: polling until it is back');
        client = null;
        retry = setTimeout(() => { void connect(); }, RELISTEN_MS);
        retry.unref();
      });
      await c.query(`LISTEN ${channel}`);
      client = c;
      // Jobs added while no one listened are found now.
      poke('');
    } catch (err) {
      if (closed) return;
      log.warn({ err }, 'job notifications unavailable: polling until they are back');
      retry = setTimeout(() => { void connect(); }, RELISTEN_MS);
      retry.unref();
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
