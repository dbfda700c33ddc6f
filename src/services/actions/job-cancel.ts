import type { DB } from '../../db/connect';
import type { ActionRunJob } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { cancelTaskRows, DONE, setJobStatus } from '../../models/actions-engine';

/**
 * Ends the unfinished ones of `jobs` with `result` (their running tasks too: the runner sees it
 * on its next update); the jobs ended.
 */
export async function cancelJobs(db: DB, jobs: ActionRunJob[], result: 'cancelled' | 'failure' = 'cancelled'): Promise<ActionRunJob[]> {
  const now = nowUnix();
  const out: ActionRunJob[] = [];
  for (const job of jobs.filter((j) => !(DONE as readonly string[]).includes(j.status))) {
    if (job.task_id) await cancelTaskRows(db, job.task_id, now, result);
    await setJobStatus(db, job.id, result, now);
    out.push({ ...job, status: result });
  }
  return out;
}
