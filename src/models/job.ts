import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';
import type { Job } from '../db/schema';

// The durable job table: pending jobs wait until run_at (unix ms); one running job per
// non-empty key, taken in id order.

export type NewJob = { kind: string; key: string; payload: string; runAt: number; maxAttempts: number; now: number };

export async function insertJob(db: DB, j: NewJob): Promise<number> {
  const q = db.insertInto('job').values({
    kind: j.kind, key: j.key, payload: j.payload, run_at: j.runAt, max_attempts: j.maxAttempts, created_unix: Math.floor(j.now / 1000),
  });
  // On PostgreSQL the same statement wakes the other nodes (on commit): no statement more.
  const wake = dialectOf(db).jobsWakeUp();
  const row = await (wake ? q.returning(['id', wake.as('woken')]) : q.returning('id')).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Up to `limit` pending jobs due at `now`, oldest first, each the first of its key still waiting
 * or running (so one key's jobs run one at a time and in order), none of the keys in `busy`.
 */
export function dueJobs(db: DB, now: number, limit: number, busy: string[]): Promise<Job[]> {
  let q = db.selectFrom('job as j').selectAll('j').where('j.state', '=', 'pending').where('j.run_at', '<=', now)
    .where(({ or, eb, not, exists, selectFrom }) => or([
      eb('j.key', '=', ''),
      not(exists(selectFrom('job as k').select('k.id').whereRef('k.key', '=', 'j.key').whereRef('k.id', '<', 'j.id')
        .where('k.state', 'in', ['pending', 'running']))),
    ]));
  if (busy.length) q = q.where('j.key', 'not in', busy);
  return q.orderBy('j.run_at').orderBy('j.id').limit(limit).execute();
}

/** Marks a pending job running; false when another taker was first. */
export async function claimJob(db: DB, id: number, now: number): Promise<boolean> {
  const r = await db.updateTable('job').set({ state: 'running', started_at: now, attempts: sql`attempts + 1` })
    .where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// `owner`: the node whose lease the job is under (PostgreSQL); a node whose lease ran out and was
// taken by another leaves the row to that node. Absent on SQLite's path, which has no leases.

export async function deleteJob(db: DB, id: number, owner?: string): Promise<void> {
  await db.deleteFrom('job').where('id', '=', id).$if(owner !== undefined, (q) => q.where('locked_by', '=', owner!)).execute();
}

export async function retryJob(db: DB, id: number, runAt: number, error: string, owner?: string): Promise<void> {
  await db.updateTable('job').set({ state: 'pending', run_at: runAt, last_error: error.slice(0, 4096), ...(owner !== undefined ? { locked_by: '', lease_until: 0 } : {}) })
    .where('id', '=', id).$if(owner !== undefined, (q) => q.where('locked_by', '=', owner!)).execute();
}

export async function failJob(db: DB, id: number, error: string, owner?: string): Promise<void> {
  await db.updateTable('job').set({ state: 'failed', last_error: error.slice(0, 4096) })
    .where('id', '=', id).$if(owner !== undefined, (q) => q.where('locked_by', '=', owner!)).execute();
}

/** Deletes the failed jobs whose last attempt was due before `runAt` (unix ms); how many. */
export async function deleteFailedJobsBefore(db: DB, runAt: number): Promise<number> {
  const r = await db.deleteFrom('job').where('state', '=', 'failed').where('run_at', '<', runAt).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Jobs a crash left running go back to pending (their attempt counts). */
export async function requeueRunning(db: DB): Promise<number> {
  const r = await db.updateTable('job').set({ state: 'pending' }).where('state', '=', 'running').executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** When the next pending job is due (unix ms), or null when none waits. */
export async function nextRunAt(db: DB): Promise<number | null> {
  const row = await db.selectFrom('job').select((eb) => eb.fn.min('run_at').as('at')).where('state', '=', 'pending').executeTakeFirst();
  return row?.at ?? null;
}

export async function countJobs(db: DB, state: 'pending' | 'running' | 'failed'): Promise<number> {
  const row = await db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', state).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a job of `key` waits to run (one that is running does not count: it may have read its input already). */
export async function hasPendingJob(db: DB, key: string): Promise<boolean> {
  const row = await db.selectFrom('job').select('id').where('key', '=', key).where('state', '=', 'pending').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Which of `ids` are still pending or running (a job that ended is deleted, or failed). */
export async function unfinishedJobIds(db: DB, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('job').select('id').where('id', 'in', ids).where('state', 'in', ['pending', 'running']).execute();
  return rows.map((r) => r.id);
}
