import { sql } from 'kysely';
import type { DB } from '../connect';
import type { Job } from '../schema';
import { JOBS_CHANNEL } from '../dialect';
import { dbNowMs } from './cluster';

// The job queue's claim and leases on PostgreSQL, where several nodes take jobs from one table.
// One statement claims one job: the subquery picks the first due job (no earlier unfinished job
// of its key) and locks it, skipping rows another node is locking, and the UPDATE marks it
// running with this node's lease. No two nodes can claim one row, and no race is lost and
// retried, as the read-then-update of SQLite's path would be here. Leases are in database time.

export { JOBS_CHANNEL };

/** Claims the next due job for `node` with a lease of `leaseMs`, none of `skip`; undefined when none is free. */
export async function claimNextJob(db: DB, node: string, now: number, leaseMs: number, skip: number[] = []): Promise<Job | undefined> {
  const r = await sql<Job>`UPDATE job SET state = 'running', started_at = ${now}, attempts = attempts + 1,
      locked_by = ${node}, lease_until = ${dbNowMs} + ${leaseMs}
    WHERE id = (
      SELECT j.id FROM job j
      WHERE j.state = 'pending' AND j.run_at <= ${now} AND j.id <> ALL(${skip}::bigint[])
        AND (j.key = '' OR NOT EXISTS (SELECT 1 FROM job k WHERE k.key = j.key AND k.id < j.id AND k.state IN ('pending', 'running')))
      ORDER BY j.run_at, j.id LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return r.rows[0];
}

/** Extends the lease of a job `node` still holds; false when it lost it (expired and taken back). */
export async function renewLease(db: DB, id: number, node: string, leaseMs: number): Promise<boolean> {
  const r = await db.updateTable('job').set({ lease_until: sql<number>`${dbNowMs} + ${leaseMs}` })
    .where('id', '=', id).where('locked_by', '=', node).where('state', '=', 'running').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Running jobs whose lease ran out (their node died or stalled) are pending again; how many. */
export async function requeueExpiredLeases(db: DB): Promise<number> {
  const r = await db.updateTable('job').set({ state: 'pending', locked_by: '', lease_until: 0 })
    .where('state', '=', 'running').where('lease_until', '<', dbNowMs).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Wakes every node's queue but `from`'s own (delivered when the caller's transaction commits, if it is in one). */
export async function notifyJobs(db: DB, from: string): Promise<void> {
  await sql`SELECT pg_notify(${JOBS_CHANNEL}, ${from})`.execute(db);
}
