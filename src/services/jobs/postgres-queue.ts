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
  /** Claims up to `n` due jobs for this node. */
  claim(n: number, now: number): Promise<Job[]>;
  /** Renews the job's lease while it runs; call the result when it ends. */
  hold(job: Job): () => void;
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
  // A node's own announcements are skipped: its workers' ends poke it already.
  const listener = o.url ? await listen(o.url, o.log, (from) => { if (from !== o.nodeId) o.poke(); }, jobs.JOBS_CHANNEL) : null;
  return {
    async claim(n, now) {
      const claimed: Job[] = [];
      while (claimed.length < n) {
        const job = await jobs.claimNextJob(o.db, o.nodeId, now, o.leaseMs);
        if (!job) break;
        claimed.push(job);
      }
      return claimed;
    },
    hold(job) {
      const timer = setInterval(() => {
        jobs.renewLease(o.db, job.id, o.nodeId, o.leaseMs).then((held) => {
          if (!held) o.log.warn({ job: job.id, kind: job.kind }, 'job lease lost: another node may run it again');
        }, (err: unknown) => o.log.warn({ err, job: job.id }, 'job lease renewal failed'));
      }, Math.max(100, Math.floor(o.leaseMs / 3)));
      timer.unref();
      return () => clearInterval(timer);
    },
    async ended(job) {
      if (job.key) await jobs.notifyJobs(o.db, o.nodeId);
    },
    async stop() {
      clearInterval(sweeper);
      await listener?.close();
    },
  };
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
