import type { DB } from '../../db/connect';
import type { ActionRunJob } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { cancelTaskRows, setJobStatus } from '../../models/actions-engine';

const DONE = new Set(['success', 'failure', 'cancelled', 'skipped']);

/** Cancels the unfinished ones of `jobs` (their running tasks too); the jobs cancelled. */
export async function cancelJobs(db: DB, jobs: ActionRunJob[]): Promise<ActionRunJob[]> {
  const now = nowUnix();
  const out: ActionRunJob[] = [];
  for (const job of jobs.filter((j) => !DONE.has(j.status))) {
    if (job.task_id) await cancelTaskRows(db, job.task_id, now);
    await setJobStatus(db, job.id, 'cancelled', now);
    out.push({ ...job, status: 'cancelled' });
  }
  return out;
}
