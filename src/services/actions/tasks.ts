import { yaml } from '../../lib/lazy-require';
import type { DB } from '../../db/connect';
import type { ActionRunJob, ActionRunner, ActionTask } from '../../db/schema';
import { backgroundError } from '../../lib/background-log';
import { hashToken, newToken } from '../../lib/token';
import { nowUnix } from '../../lib/time';
import { cancelTaskRows, getRunJob, setJobStatus } from '../../models/actions-engine';
import * as m from '../../models/actions-tasks';
import { jobResultReported, jobStarted } from './runs';
import type { Hearth } from '../../hearth';

// Tasks: one attempt of a job on one runner (Gitea's models/actions/task.go). A runner fetching
// work takes the oldest waiting job it can run; the task gets a fresh job token and one step
// row per step of the job's workflow. Stopping a task (its result reported, a cancel, the cron
// tasks) finishes its rows, ends its token, then hands the job's result to the engine.

export const RESULTS = ['', 'success', 'failure', 'cancelled', 'skipped'] as const;
export type FinalResult = 'success' | 'failure' | 'cancelled' | 'skipped';

/** Runner labels may carry an execution hint (`ubuntu-latest:docker://node:20`): the name is before it. */
export const labelNames = (labels: string): string[] => {
  try {
    return (JSON.parse(labels) as string[]).map((l) => l.split(':')[0]!.trim()).filter(Boolean);
  } catch {
    return [];
  }
};

function jobLabels(job: ActionRunJob): string[] {
  try {
    const v = JSON.parse(job.runs_on) as unknown;
    return Array.isArray(v) ? v.map(String) : [String(v)];
  } catch {
    return [];
  }
}

/** act's Step.String(): the name, else what it uses, else what it runs, else its id. */
export function stepNames(payload: string): string[] {
  try {
    const doc = yaml().parse(payload) as { jobs?: Record<string, { steps?: Record<string, unknown>[] }> };
    const job = Object.values(doc?.jobs ?? {})[0];
    return (job?.steps ?? []).map((s, i) => String(s?.name ?? s?.uses ?? s?.run ?? s?.id ?? `step ${i}`));
  } catch {
    return [];
  }
}

/** Creates the task of a job the runner just took, with its token (returned once, never stored). */
async function startTask(db: DB, runner: ActionRunner, job: ActionRunJob): Promise<{ task: ActionTask; token: string } | null> {
  const token = newToken();
  const now = nowUnix();
  return db.transaction().execute(async (trx) => {
    const task = await m.insertTask(trx, { job, runnerId: runner.id, tokenHash: hashToken(token), lastEight: token.slice(-8), now });
    if (!(await m.claimJob(trx, job.id, task.id, now))) {
      await m.deleteTask(trx, task.id);
      return null;
    }
    await m.insertSteps(trx, task.id, stepNames(job.workflow_payload));
    return { task, token };
  });
}

/**
 * The oldest waiting job this runner may run (all of its runs-on labels among the runner's, in
 * the runner's scope), taken as a new task; null when there is none or the runner is disabled.
 */
export async function pickTask(h: Hearth, runner: ActionRunner): Promise<{ task: ActionTask; token: string; job: ActionRunJob } | null> {
  if (runner.disabled || runner.deleted_unix) return null;
  if (runner.ephemeral && (await m.runnerHasTask(h.db, runner.id))) return null;
  const have = new Set(labelNames(runner.labels));
  const candidates = await m.waitingJobs(h.db, { ownerId: runner.owner_id, repoId: runner.repo_id }, 200);
  for (const job of candidates) {
    const wants = jobLabels(job);
    if (!wants.length || !wants.every((l) => have.has(l))) continue;
    const started = await startTask(h.db, runner, job);
    if (!started) continue;
    await jobStarted(h, job.id).catch((err: unknown) => backgroundError({ err, job: job.id }, 'actions job start follow-up failed'));
    return { ...started, job: (await getRunJob(h.db, job.id)) ?? job };
  }
  return null;
}

/**
 * Ends a running task with a final result: the task, its unfinished steps and its job take it,
 * the job token stops working, and the engine moves the run on. A task already stopped is left.
 */
export async function stopTask(h: Hearth, taskId: number, result: FinalResult, stoppedAt = nowUnix()): Promise<void> {
  const task = await m.getTask(h.db, taskId);
  if (!task || task.status !== 'running') return;
  const now = nowUnix();
  if (!(await m.finishTask(h.db, taskId, result, stoppedAt, now))) return;
  await cancelTaskRows(h.db, taskId, now);
  const job = await getRunJob(h.db, task.job_id);
  if (job && job.task_id === taskId && !['success', 'failure', 'cancelled', 'skipped'].includes(job.status)) {
    await setJobStatus(h.db, job.id, result, now);
  }
  await jobResultReported(h, task.job_id);
}
