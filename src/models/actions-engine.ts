import type { Insertable } from 'kysely';
import type { DB } from '../db/connect';
import type { ActionRun, ActionRunJob, ActionRunJobTable, ActionRunTable } from '../db/schema';

// The engine's queries over action_run and action_run_job (runs, jobs and their states).

export const DONE = ['success', 'failure', 'cancelled', 'skipped'] as const;
export const ACTIVE = ['waiting', 'blocked', 'running'] as const;

/** The next run number of a repository (inside the transaction that inserts the run). */
export async function nextRunIndex(db: DB, repoId: number): Promise<number> {
  const row = await db.selectFrom('action_run').select((eb) => eb.fn.max('run_index').as('n'))
    .where('repo_id', '=', repoId).executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

export async function insertRun(db: DB, row: Insertable<ActionRunTable>): Promise<ActionRun> {
  return db.insertInto('action_run').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertRunJob(db: DB, row: Insertable<ActionRunJobTable>): Promise<ActionRunJob> {
  return db.insertInto('action_run_job').values(row).returningAll().executeTakeFirstOrThrow();
}

export const getRun = (db: DB, id: number) => db.selectFrom('action_run').selectAll().where('id', '=', id).executeTakeFirst();
export const getRunJob = (db: DB, id: number) => db.selectFrom('action_run_job').selectAll().where('id', '=', id).executeTakeFirst();

export const jobsOfRun = (db: DB, runId: number) =>
  db.selectFrom('action_run_job').selectAll().where('run_id', '=', runId).orderBy('id').execute();

export async function setJobStatus(db: DB, id: number, status: string, now: number): Promise<void> {
  const done = (DONE as readonly string[]).includes(status);
  await db.updateTable('action_run_job').set((eb) => ({
    status, updated_unix: now,
    started_unix: status === 'running' ? eb.fn.coalesce('started_unix', eb.val(now)) : eb.ref('started_unix'),
    stopped_unix: done ? now : eb.ref('stopped_unix'),
  })).where('id', '=', id).execute();
}

export async function setRunState(db: DB, id: number, patch: { status: string; started_unix?: number | null; stopped_unix?: number | null; now: number }): Promise<void> {
  const { now, ...rest } = patch;
  await db.updateTable('action_run').set({ ...rest, updated_unix: now }).where('id', '=', id).execute();
}

/**
 * Records a writer's approval of a run waiting for one; false when it was not waiting (already
 * approved, or never needed it), so a second approval changes nothing.
 */
export async function markRunApproved(db: DB, id: number, approverId: number, now: number): Promise<boolean> {
  const res = await db.updateTable('action_run').set({ need_approval: 0, approved_by: approverId, updated_unix: now })
    .where('id', '=', id).where('need_approval', '=', 1).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Whether a run of the repository triggered by the user was approved before (Gitea's FindRunOptions.Approved). */
export async function userApprovedBefore(db: DB, repoId: number, userId: number): Promise<boolean> {
  const row = await db.selectFrom('action_run').select('id').where('repo_id', '=', repoId)
    .where('trigger_user_id', '=', userId).where('approved_by', '>', 0).limit(1).executeTakeFirst();
  return !!row;
}

/** Runs of the group still going, other than `exceptId`, oldest first. */
export const activeRunsInGroup = (db: DB, repoId: number, group: string, exceptId: number) =>
  db.selectFrom('action_run').selectAll().where('repo_id', '=', repoId).where('concurrency_group', '=', group)
    .where('id', '!=', exceptId).where('status', 'in', [...ACTIVE]).orderBy('id').execute();

/** Records a job's evaluated concurrency group. */
export async function setJobConcurrency(db: DB, id: number, group: string, cancel: boolean): Promise<void> {
  await db.updateTable('action_run_job').set({ concurrency_group: group, concurrency_cancel: cancel ? 1 : 0 }).where('id', '=', id).execute();
}

/** The jobs of a repository's concurrency group in one of `statuses`, oldest first. */
export const jobsInGroup = (db: DB, repoId: number, group: string, statuses: readonly string[]) =>
  db.selectFrom('action_run_job').selectAll().where('repo_id', '=', repoId).where('concurrency_group', '=', group)
    .where('status', 'in', [...statuses]).orderBy('id').execute();

export async function workflowDisabled(db: DB, repoId: number, workflowId: string): Promise<boolean> {
  const row = await db.selectFrom('action_workflow_state').select('disabled')
    .where('repo_id', '=', repoId).where('workflow_id', '=', workflowId).executeTakeFirst();
  return !!row?.disabled;
}

/** The outputs of a job's task (its last attempt), by key. */
export async function outputsOfTask(db: DB, taskId: number | null): Promise<Record<string, string>> {
  if (!taskId) return {};
  const rows = await db.selectFrom('action_task_output').select(['output_key', 'output_value']).where('task_id', '=', taskId).execute();
  return Object.fromEntries(rows.map((r) => [r.output_key, r.output_value]));
}

/** The running task of a job, if any. */
export const runningTaskOfJob = (db: DB, jobId: number) =>
  db.selectFrom('action_task').selectAll().where('job_id', '=', jobId).where('status', '=', 'running')
    .orderBy('id', 'desc').executeTakeFirst();

export const getTask = (db: DB, id: number) => db.selectFrom('action_task').selectAll().where('id', '=', id).executeTakeFirst();

/** The variables a repository's workflows see: instance, then owner, then repository (later wins). */
export async function variablesFor(db: DB, ownerId: number, repoId: number): Promise<Record<string, string>> {
  const rows = await db.selectFrom('action_variable').select(['name', 'data', 'owner_id', 'repo_id'])
    .where((eb) => eb.or([
      eb.and([eb('owner_id', '=', 0), eb('repo_id', '=', 0)]),
      eb.and([eb('owner_id', '=', ownerId), eb('repo_id', '=', 0)]),
      eb('repo_id', '=', repoId),
    ])).execute();
  const rank = (r: { owner_id: number; repo_id: number }) => (r.repo_id ? 2 : r.owner_id ? 1 : 0);
  rows.sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(rows.map((r) => [r.name, r.data]));
}

/**
 * Stops a task that still runs with `status` (its job token stops working; the runner sees it on
 * its next UpdateTask) and marks its unfinished steps cancelled.
 */
export async function cancelTaskRows(db: DB, taskId: number, now: number, status = 'cancelled'): Promise<void> {
  await db.updateTable('action_task').set({ status, stopped_unix: now, updated_unix: now, token_hash: null })
    .where('id', '=', taskId).where('status', 'in', ['waiting', 'blocked', 'running']).execute();
  await db.updateTable('action_task_step').set({ status: 'cancelled', stopped_unix: now })
    .where('task_id', '=', taskId).where('status', 'in', ['waiting', 'blocked', 'running']).execute();
}

/** Jobs about to run again (a re-run): blocked, without a task (the next task counts the attempt up). */
export async function resetJobsForRerun(db: DB, ids: number[], now: number): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('action_run_job').set({ status: 'blocked', task_id: null, started_unix: null, stopped_unix: null, updated_unix: now })
    .where('id', 'in', ids).execute();
}
