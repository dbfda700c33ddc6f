import type { DB } from '../../db/connect';
import type { ActionRun, ActionRunJob } from '../../db/schema';
import { evalIf, type ExprContext } from '../../lib/actions-expr';
import { backgroundError } from '../../lib/background-log';
import { nowUnix } from '../../lib/time';
import { gateJob } from './job-concurrency';
import { activeRunsInGroup, jobsInGroup, jobsOfRun, outputsOfTask, setJobStatus, setRunState } from '../../models/actions-engine';

// The job state machine of a run. Jobs wait on their needs (`blocked`); once every needed job
// (all of a matrix) is done, the job's `if:` decides between `waiting` (a runner may take it)
// and `skipped`, with GitHub's default `success()`. A run queued behind an earlier run of its
// concurrency group, or waiting for a writer's approval, keeps even its first jobs blocked until
// that run is done or the approval comes. The run's status is derived from its jobs as Gitea's
// AggregateJobStatus.

export const isDone = (s: string) => s === 'success' || s === 'failure' || s === 'cancelled' || s === 'skipped';

/** A failed job marked continue-on-error counts as a success for its run and its dependents. */
const effective = (j: ActionRunJob) => (j.status === 'failure' && j.continue_on_error ? 'success' : j.status);

/** Gitea's AggregateJobStatus. */
export function aggregateStatus(jobs: ActionRunJob[]): string {
  if (!jobs.length) return 'failure';
  const st = jobs.map(effective);
  if (st.every((s) => s === 'skipped')) return 'skipped';
  if (st.every((s) => s === 'success' || s === 'skipped')) return 'success';
  for (const s of ['cancelled', 'running', 'waiting', 'failure', 'blocked']) if (st.includes(s)) return s;
  return 'failure';
}

/** GitHub's needs.<id>.result of the jobs (matrix combinations) of one job id. */
export function needResult(jobs: ActionRunJob[]): string | null {
  if (!jobs.every((j) => isDone(j.status))) return null;
  const st = jobs.map(effective);
  if (st.includes('failure')) return 'failure';
  if (st.includes('cancelled')) return 'cancelled';
  if (st.length && st.every((s) => s === 'skipped')) return 'skipped';
  return 'success';
}

export type PlanBase = ExprContext;

async function needsContext(db: DB, ids: string[], byId: Map<string, ActionRunJob[]>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const jobs = byId.get(id) ?? [];
    const outputs: Record<string, string> = {};
    for (const j of jobs) Object.assign(outputs, await outputsOfTask(db, j.task_id));
    out[id] = { result: needResult(jobs), outputs };
  }
  return out;
}

function parseJson<T>(text: string | null, fallback: T): T {
  try {
    return text ? JSON.parse(text) as T : fallback;
  } catch {
    return fallback;
  }
}

/** The status a blocked job moves to now (null while it must still wait), and the context it was decided in. */
async function decide(db: DB, job: ActionRunJob, byId: Map<string, ActionRunJob[]>, base: PlanBase, held: boolean) {
  const needs = parseJson<string[]>(job.needs, []);
  if (!needs.length && held) return null;
  const results = needs.map((n) => needResult(byId.get(n) ?? []));
  if (results.some((r) => r === null)) return null;
  const status = { success: results.every((r) => r === 'success'), failure: results.includes('failure'), cancelled: false };
  const ctx = { ...base, needs: await needsContext(db, needs, byId), matrix: parseJson(job.matrix, {}) };
  try {
    return { next: evalIf(job.if_expr ?? '', ctx, status) ? 'waiting' : 'skipped', ctx };
  } catch {
    // A condition the server cannot read (a runner-side context): the runner evaluates it.
    return { next: status.success ? 'waiting' : 'skipped', ctx };
  }
}

/**
 * A job about to wait for a runner passes its own concurrency group first (job-concurrency.ts):
 * it may stay blocked, and cancel earlier jobs of the group. A group that cannot be evaluated
 * fails the job, rather than leaving it blocked for good.
 */
async function gate(db: DB, job: ActionRunJob, ctx: PlanBase, cancelled: ActionRunJob[]): Promise<string | null> {
  try {
    const g = await gateJob(db, job, ctx);
    cancelled.push(...g.cancelled);
    return g.start ? 'waiting' : null;
  } catch (err) {
    backgroundError({ err, job: job.id }, 'actions: the job\'s concurrency group could not be evaluated');
    return 'failure';
  }
}

/** Whether the run waits for approval, or for an earlier run or a running job of its concurrency group (without cancel-in-progress). */
export async function isHeld(db: DB, run: ActionRun): Promise<boolean> {
  if (run.need_approval) return true;
  if (!run.concurrency_group || run.concurrency_cancel) return false;
  const others = await activeRunsInGroup(db, run.repo_id, run.concurrency_group, run.id);
  if (others.some((o) => o.id < run.id)) return true;
  // A running job of another run holding the same group by its job-level `concurrency:` (Gitea's shouldBlockRunByConcurrency).
  return (await jobsInGroup(db, run.repo_id, run.concurrency_group, ['running'])).some((j) => j.run_id !== run.id);
}

/**
 * strategy.max-parallel: a combination of a matrix job starts only while fewer than that many of
 * its siblings wait for or hold a runner (checked before its concurrency group, which would
 * cancel other jobs for one that cannot start anyway).
 */
function slotFree(job: ActionRunJob, jobs: ActionRunJob[]): boolean {
  if (job.max_parallel <= 0) return true;
  const busy = jobs.filter((j) => j.job_id === job.job_id && (j.status === 'waiting' || j.status === 'running'));
  return busy.length < job.max_parallel;
}

/**
 * Moves every blocked job that can move (repeatedly: a skip may release the next); the jobs of
 * this run changed. Jobs of other runs cancelled by a job's concurrency group go to `elsewhere`.
 */
export async function resolveJobs(db: DB, run: ActionRun, base: PlanBase, elsewhere: ActionRunJob[] = []): Promise<ActionRunJob[]> {
  const held = await isHeld(db, run);
  const changed = new Map<number, ActionRunJob>();
  for (let round = 0; round < 1000; round++) {
    const jobs = await jobsOfRun(db, run.id);
    const byId = new Map<string, ActionRunJob[]>();
    for (const j of jobs) byId.set(j.job_id, [...(byId.get(j.job_id) ?? []), j]);
    let moved = false;
    for (const job of jobs.filter((j) => j.status === 'blocked')) {
      const decided = await decide(db, job, byId, base, held);
      const cancelled: ActionRunJob[] = [];
      const ready = decided?.next === 'waiting' && slotFree(job, jobs);
      const next = ready ? await gate(db, job, decided.ctx, cancelled) : decided?.next === 'skipped' ? 'skipped' : null;
      for (const c of cancelled) (c.run_id === run.id ? changed.set(c.id, c) : elsewhere.push(c));
      if (!next) continue;
      await setJobStatus(db, job.id, next, nowUnix());
      changed.set(job.id, { ...job, status: next });
      job.status = next;
      moved = true;
    }
    if (!moved) break;
  }
  return [...changed.values()];
}

/** Derives and stores the run's status; returns the run before and after. */
export async function refreshRunStatus(db: DB, run: ActionRun): Promise<{ before: ActionRun; after: ActionRun }> {
  const jobs = await jobsOfRun(db, run.id);
  const status = run.workflow_error ? 'failure' : aggregateStatus(jobs);
  const now = nowUnix();
  const started = run.started_unix ?? (jobs.some((j) => j.started_unix) || status === 'running' ? now : null);
  const stopped = isDone(status) ? (run.stopped_unix ?? now) : null;
  if (status !== run.status || started !== run.started_unix || stopped !== run.stopped_unix) {
    await setRunState(db, run.id, { status, started_unix: started, stopped_unix: stopped, now });
  }
  return { before: run, after: { ...run, status, started_unix: started, stopped_unix: stopped, updated_unix: now } };
}
