import type { DB } from '../../db/connect';
import type { ActionRunJob } from '../../db/schema';
import { activeRunsInGroup, jobsInGroup, setJobConcurrency } from '../../models/actions-engine';
import { cancelJobs } from './job-cancel';
import { concurrencyOf, type PlanContext } from './workflow/expand';

// A job's own `concurrency:` (GitHub's jobs.<id>.concurrency, Gitea's
// PrepareToStartJobWithConcurrency). It is evaluated when the job could start, its needs done:
// the group may read their outputs (and the matrix). Groups are per repository and shared with
// workflow-level ones. A job entering its group replaces the earlier jobs of the group that
// have not started (they are cancelled), the running ones too with cancel-in-progress; without
// it, the job stays blocked while a job or run of the group runs, and starts when that one ends.

export type Gate = { start: boolean; cancelled: ActionRunJob[] };

const OPEN: Gate = { start: true, cancelled: [] };

/** Whether `job` may start now, and the jobs its group cancelled; throws WorkflowSyntaxError on a bad expression. */
export async function gateJob(db: DB, job: ActionRunJob, ctx: PlanContext): Promise<Gate> {
  if (!job.raw_concurrency) return OPEN;
  const c = concurrencyOf(JSON.parse(job.raw_concurrency), ctx);
  if (!c) return OPEN;
  await setJobConcurrency(db, job.id, c.group, c.cancelInProgress);
  const replaced = c.cancelInProgress ? ['waiting', 'blocked', 'running'] : ['waiting', 'blocked'];
  const earlier = (await jobsInGroup(db, job.repo_id, c.group, replaced)).filter((j) => j.id < job.id);
  const cancelled = await cancelJobs(db, earlier);
  if (c.cancelInProgress) return { start: true, cancelled };
  const runningJob = (await jobsInGroup(db, job.repo_id, c.group, ['running'])).some((j) => j.id !== job.id);
  const runningRun = (await activeRunsInGroup(db, job.repo_id, c.group, job.run_id)).some((r) => r.status === 'running');
  return { start: !runningJob && !runningRun, cancelled };
}

/** The oldest job held in `group` (its run's next resolve may start it), if any. */
export async function heldInGroup(db: DB, repoId: number, group: string): Promise<ActionRunJob | undefined> {
  return (await jobsInGroup(db, repoId, group, ['blocked']))[0];
}
