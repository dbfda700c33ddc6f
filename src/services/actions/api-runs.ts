import type { DB } from '../../db/connect';
import type { ActionRun, ActionRunJob, Repository, User } from '../../db/schema';
import type { JobView, RunView } from '../../convert/actions-run';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import type { PageWindow } from '../../models/actions-secrets';
import * as q from '../../models/actions-run-query';
import { getRepoById } from '../../models/repo';
import { getUserById, getUserByName } from '../../models/user';

// Runs, jobs and tasks as the REST API lists them (Gitea's routers/api/v1/shared/action.go):
// the query, then every row each JSON needs, read once per page.

export type ListScope = { ownerId: number; repoId: number };
export type RunQuery = { event?: string; branch?: string; status?: string[]; actor?: string; headSha?: string; workflow?: string };

/** Gitea's convertToInternal: the API's status words to ours; an unknown word is a 400. */
export function internalStatuses(words: string[]): string[] {
  const map: Record<string, string[]> = {
    pending: ['blocked'], waiting: ['blocked'], requested: ['blocked'], action_required: ['blocked'],
    queued: ['waiting'], in_progress: ['running'],
    completed: ['success', 'failure', 'skipped', 'cancelled'],
    failure: ['failure'], success: ['success'], skipped: ['skipped'], neutral: ['skipped'],
    cancelled: ['cancelled'], timed_out: ['cancelled'],
  };
  return words.flatMap((w) => {
    const v = map[w];
    if (!v) throw new BadRequestError(`Invalid status ${w}`);
    return v;
  });
}

type Cache = { repos: Map<number, Repository | undefined>; users: Map<number, User | undefined> };
const newCache = (): Cache => ({ repos: new Map(), users: new Map() });

async function userOf(db: DB, c: Cache, id: number): Promise<User | undefined> {
  if (!c.users.has(id)) c.users.set(id, id > 0 ? await getUserById(db, id) : undefined);
  return c.users.get(id);
}

async function runView(db: DB, c: Cache, run: ActionRun): Promise<RunView | null> {
  if (!c.repos.has(run.repo_id)) c.repos.set(run.repo_id, await getRepoById(db, run.repo_id));
  const repo = c.repos.get(run.repo_id);
  const owner = repo && (await userOf(db, c, repo.owner_id));
  if (!repo || !owner) return null;
  return { run, repo, owner, trigger: (await userOf(db, c, run.trigger_user_id)) ?? null };
}

async function runViews(db: DB, c: Cache, runs: ActionRun[]): Promise<RunView[]> {
  const out: RunView[] = [];
  for (const r of runs) {
    const v = await runView(db, c, r);
    if (v) out.push(v);
  }
  return out;
}

export async function listRuns(db: DB, scope: ListScope, query: RunQuery, page: PageWindow): Promise<{ views: RunView[]; total: number }> {
  const filter: q.RunFilter = { ...scope, triggerEvent: query.event, commitSha: query.headSha, workflowId: query.workflow };
  if (query.branch) filter.ref = `refs/heads/${query.branch}`;
  if (query.status?.length) filter.statuses = internalStatuses(query.status);
  if (query.actor) {
    const user = await getUserByName(db, query.actor);
    // Gitea fails on an unknown actor; no run of nobody is the same answer without the 500.
    if (!user) return { views: [], total: 0 };
    filter.triggerUserId = user.id;
  }
  const { rows, total } = await q.findRuns(db, filter, page);
  return { views: await runViews(db, newCache(), rows), total };
}

export async function getRun(db: DB, repoId: number, runId: number): Promise<RunView> {
  const run = Number.isSafeInteger(runId) && runId > 0 ? await q.getRunOfRepo(db, repoId, runId) : undefined;
  const v = run && (await runView(db, newCache(), run));
  if (!v) throw new NotFoundError('run not found');
  return v;
}

async function jobViews(db: DB, c: Cache, jobs: ActionRunJob[]): Promise<JobView[]> {
  const runs = new Map((await q.runsByIds(db, jobs.map((j) => j.run_id))).map((r) => [r.id, r]));
  const order = await q.jobIdsOfRuns(db, [...runs.keys()]);
  const tasks = new Map((await q.tasksByIds(db, jobs.flatMap((j) => (j.task_id ? [j.task_id] : [])))).map((t) => [t.id, t]));
  const steps = await q.stepsOfTasks(db, [...tasks.keys()]);
  const names = await q.runnerNames(db, [...tasks.values()].map((t) => t.runner_id));
  const out: JobView[] = [];
  for (const job of jobs) {
    const run = runs.get(job.run_id);
    const rv = run && (await runView(db, c, run));
    if (!rv) continue;
    const task = (job.task_id && tasks.get(job.task_id)) || null;
    out.push({
      ...rv, job, task,
      steps: task ? steps.filter((s) => s.task_id === task.id) : [],
      runnerName: task ? names.get(task.runner_id) ?? '' : '',
      index: Math.max(0, (order.get(job.run_id) ?? []).indexOf(job.id)),
    });
  }
  return out;
}

export async function listJobs(
  db: DB, scope: ListScope & { runId?: number }, statuses: string[], page: PageWindow,
): Promise<{ views: JobView[]; total: number }> {
  const { rows, total } = await q.findJobs(db, { ...scope, statuses: internalStatuses(statuses) }, page);
  return { views: await jobViews(db, newCache(), rows), total };
}

export async function getJob(db: DB, repoId: number, jobId: number): Promise<JobView> {
  const job = Number.isSafeInteger(jobId) && jobId > 0 ? await q.getJobOfRepo(db, repoId, jobId) : undefined;
  const [v] = job ? await jobViews(db, newCache(), [job]) : [];
  if (!v) throw new NotFoundError('job not found');
  return v;
}

/** A repository's tasks, each with its job and run (Gitea's ListActionTasks). */
export async function listTasks(db: DB, repoId: number, page: PageWindow): Promise<{ views: JobView[]; total: number }> {
  const { rows, total } = await q.findTasks(db, repoId, page);
  const jobs = new Map((await q.jobsByIds(db, rows.map((t) => t.job_id))).map((j) => [j.id, j]));
  const base = await jobViews(db, newCache(), [...jobs.values()]);
  const byJob = new Map(base.map((v) => [v.job.id, v]));
  const views = rows.flatMap((t) => {
    const v = byJob.get(t.job_id);
    return v ? [{ ...v, task: t }] : [];
  });
  return { views, total };
}
