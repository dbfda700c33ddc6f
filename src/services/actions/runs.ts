import type { ActionRunJob, User } from '../../db/schema';
import { backgroundError } from '../../lib/background-log';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { withKeyLock } from '../../lib/keyed-lock';
import { type Hearth, withDb } from '../../hearth';
import { nowUnix } from '../../lib/time';
import { activeRunsInGroup, getRun, getRunJob, jobsOfRun, markRunApproved, resetJobsForRerun } from '../../models/actions-engine';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { recordAudit } from '../audit/record';
import { cancelJobs } from './job-cancel';
import { heldInGroup } from './job-concurrency';
import { planContext } from './run-create';
import { emitJobHook, emitRunHook, postJobStatus, type NotifyCtx } from './run-notify';
import { isDone, isHeld, refreshRunStatus, resolveJobs } from './run-state';

export { dispatchWorkflow } from './dispatch';

// The engine's entry points for the other Actions parts: a run just created, a job a runner
// started or finished (A3's task protocol), a cancel or an approval (the API), and the follow-ups
// of each: dependents released or skipped, the run's status derived, commit statuses and webhooks
// sent, runs of a concurrency group cancelled or released. Work on one repository's runs is
// serialized.

/** What the engine needs beyond the database: the instance handle (the name stays for its callers). */
export type ActionsDeps = Hearth;

export const repoLock = (repoId: number) => `actions-repo:${repoId}`;

type Loaded = NotifyCtx & { jobs: ActionRunJob[] };

async function load(h: Hearth, runId: number): Promise<Loaded | null> {
  const run = await getRun(h.db, runId);
  if (!run) return null;
  const repo = await getRepoById(h.db, run.repo_id);
  const owner = repo ? await getUserById(h.db, repo.owner_id) : undefined;
  if (!repo || !owner) return null;
  return { h, repo, owner, run, jobs: await jobsOfRun(h.db, run.id) };
}

/** Commit statuses and webhooks never fail the engine: they are logged. */
async function quietly(what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    backgroundError({ err, what }, 'actions notification failed');
  }
}

async function postStatuses(l: Loaded, jobs: ActionRunJob[]): Promise<void> {
  const all = await jobsOfRun(l.h.db, l.run.id);
  for (const job of jobs) {
    const index = all.findIndex((j) => j.id === job.id);
    const fresh = all[index] ?? job;
    await quietly('commit status', () => postJobStatus(l, fresh, Math.max(0, index)));
    const action = fresh.status === 'waiting' ? 'queued' : fresh.status === 'blocked' ? 'waiting' : isDone(fresh.status) ? 'completed' : 'in_progress';
    await quietly('workflow_job hook', () => emitJobHook(l, fresh, Math.max(0, index), action));
  }
}

/** Releases or skips what can move, derives the run's status, notifies; then follows the group. */
async function settle(h: Hearth, l: Loaded, touched: ActionRunJob[], created = false): Promise<void> {
  const actor = l.run.trigger_user_id > 0 ? (await getUserById(h.db, l.run.trigger_user_id)) ?? null : null;
  const base = await planContext(h, l.run, l.repo, l.owner, actor, l.jobs[0]?.workflow_payload);
  const elsewhere: ActionRunJob[] = [];
  const moved = await resolveJobs(h.db, l.run, base, elsewhere);
  const { before, after } = await refreshRunStatus(h.db, l.run);
  const n: Loaded = { ...l, run: after };
  if (created) await quietly('workflow_run hook', () => emitRunHook(n, 'requested'));
  const seen = new Set<number>();
  await postStatuses(n, [...touched, ...moved].filter((j) => !seen.has(j.id) && seen.add(j.id)));
  if (before.status !== after.status) {
    if (after.status === 'running') await quietly('workflow_run hook', () => emitRunHook(n, 'in_progress'));
    if (isDone(after.status)) await quietly('workflow_run hook', () => emitRunHook(n, 'completed'));
  }
  if (isDone(after.status) && after.concurrency_group) await releaseGroup(h, after.repo_id, after.concurrency_group, new Set([after.id]));
  await settleRuns(h, elsewhere);
  await releaseJobGroups(h, [...touched, ...moved]);
}

/** The other runs whose jobs a job's concurrency group cancelled: their status and notifications follow. */
async function settleRuns(h: Hearth, jobs: ActionRunJob[]): Promise<void> {
  for (const runId of new Set(jobs.map((j) => j.run_id))) {
    const l = await load(h, runId);
    if (l) await settle(h, l, jobs.filter((j) => j.run_id === runId));
  }
}

/** A finished job of a concurrency group lets the job or run held in the group start. */
async function releaseJobGroups(h: Hearth, jobs: ActionRunJob[]): Promise<void> {
  const groups = new Set(jobs.filter((j) => isDone(j.status) && j.concurrency_group).map((j) => j.concurrency_group));
  const settling = new Set(jobs.map((j) => j.run_id));
  for (const group of groups) await releaseGroup(h, jobs[0]!.repo_id, group, settling);
}

/**
 * After a run or job of `group` ended: the oldest job held in the group (by its job-level
 * `concurrency:`) and the oldest run held behind it (by its workflow-level one) may start. Groups
 * of both levels share one namespace, as Gitea's GetConcurrentRunsAndJobs. Runs in `settling`
 * are being resolved by the caller already.
 */
async function releaseGroup(h: Hearth, repoId: number, group: string, settling: Set<number>): Promise<void> {
  const held = await heldInGroup(h.db, repoId, group);
  const next = (await activeRunsInGroup(h.db, repoId, group, 0)).find((r) => !settling.has(r.id));
  const runIds = new Set<number>();
  if (held && !settling.has(held.run_id)) runIds.add(held.run_id);
  if (next && !(await isHeld(h.db, next))) runIds.add(next.id);
  for (const runId of runIds) {
    const l = await load(h, runId);
    if (l) await settle(h, l, []);
  }
}

/** After a run was inserted: earlier runs of a cancel-in-progress group are cancelled, its first jobs released. */
export async function runCreated(h: Hearth, runId: number): Promise<void> {
  const first = await getRun(h.db, runId);
  if (!first) return;
  await withKeyLock(repoLock(first.repo_id), async () => {
    const l = await load(h, runId);
    if (!l) return;
    if (l.run.workflow_error) {
      await quietly('workflow_run hook', () => emitRunHook(l, 'requested'));
      await quietly('workflow_run hook', () => emitRunHook(l, 'completed'));
      return;
    }
    if (l.run.concurrency_group) {
      // As Gitea (CancelPreviousJobsByRunConcurrency): earlier runs of the group not running yet
      // are replaced by this one; running ones too with cancel-in-progress, else this one waits.
      for (const other of await activeRunsInGroup(h.db, l.run.repo_id, l.run.concurrency_group, l.run.id)) {
        if (other.id > l.run.id || (!l.run.concurrency_cancel && other.status === 'running')) continue;
        const ol = await load(h, other.id);
        if (ol) await settle(h, ol, await cancelJobs(h.db, ol.jobs));
      }
    }
    await settle(h, l, l.jobs, true);
  });
}

/** A3: a task reached its final result; dependents move, the run's status follows. */
export async function jobResultReported(h: Hearth, jobId: number): Promise<void> {
  const job = await getRunJob(h.db, jobId);
  if (!job) return;
  await withKeyLock(repoLock(job.repo_id), async () => {
    const l = await load(h, job.run_id);
    const fresh = await getRunJob(h.db, jobId);
    if (l && fresh) await settle(h, l, [fresh]);
  });
}

/** A3: a runner took the job (its status is running); the run and the commit status follow. */
export async function jobStarted(h: Hearth, jobId: number): Promise<void> {
  await jobResultReported(h, jobId);
}

/** Cancels every unfinished job of the run (a running task is told on its next update). */
export async function cancelRun(h: Hearth, runId: number, _doer: User | null): Promise<void> {
  const run = await getRun(h.db, runId);
  if (!run) throw new NotFoundError('run not found');
  await withKeyLock(repoLock(run.repo_id), async () => {
    const l = await load(withDb(h, h.db), runId);
    if (!l || isDone(l.run.status)) return;
    await settle(withDb(h, h.db), l, await cancelJobs(h.db, l.jobs));
  });
}

/**
 * Gitea's ApproveRuns: a run waiting for approval is approved by `doer` and its jobs move as
 * after any change (those without needs wait for a runner, unless the concurrency group holds
 * them). A run that waits for no approval is left as it is: approving twice changes nothing.
 */
export async function approveRun(h: Hearth, runId: number, doer: User): Promise<void> {
  const run = await getRun(h.db, runId);
  if (!run) throw new NotFoundError('run not found');
  await withKeyLock(repoLock(run.repo_id), async () => {
    const repo = await getRepoById(h.db, run.repo_id);
    // Approving lets code from outside run on the runners: who did it is kept with the approval.
    const approved = await h.db.transaction().execute(async (trx) => {
      if (!(await markRunApproved(trx, runId, doer.id, nowUnix()))) return false;
      const target = { type: 'actions_run' as const, id: run.id, name: `#${run.run_index} (${run.title})` };
      await recordAudit(trx, { op: 'actions.run.approve', target, repo, extra: { trigger_user_id: run.trigger_user_id, commit_sha: run.commit_sha } });
      return true;
    });
    if (!approved) return;
    const l = await load(h, runId);
    if (l) await settle(h, l, []);
  });
}

/** Cancels one job (the cron tasks' abandoned and endless jobs). */
export async function cancelJob(h: Hearth, jobId: number, result: 'cancelled' | 'failure' = 'cancelled'): Promise<void> {
  const job = await getRunJob(h.db, jobId);
  if (!job || isDone(job.status)) return;
  await withKeyLock(repoLock(job.repo_id), async () => {
    const ended = await cancelJobs(h.db, [job], result);
    const l = await load(h, job.run_id);
    if (l) await settle(h, l, ended);
  });
}

/**
 * Runs again the jobs `pick` chooses among a finished run's jobs (Gitea's Rerun): they go back
 * to blocked without a task, and move as a new run's jobs do. A run still going is a 400.
 */
export async function rerunJobs(h: Hearth, runId: number, pick: (jobs: ActionRunJob[]) => ActionRunJob[]): Promise<void> {
  const run = await getRun(h.db, runId);
  if (!run) throw new NotFoundError('run not found');
  await withKeyLock(repoLock(run.repo_id), async () => {
    const l = await load(h, runId);
    if (!l) throw new NotFoundError('run not found');
    if (!isDone(l.run.status) || l.run.workflow_error) throw new BadRequestError('only a finished run can be re-run');
    const chosen = pick(l.jobs);
    if (!chosen.length) throw new BadRequestError('no job of this run needs to run again');
    await resetJobsForRerun(h.db, chosen.map((j) => j.id), nowUnix());
    const fresh = await load(h, runId);
    if (fresh) await settle(h, fresh, await jobsOfRun(h.db, runId));
  });
}
