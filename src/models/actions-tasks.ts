import type { Insertable } from 'kysely';
import type { DB } from '../db/connect';
import type { ActionRunJob, ActionRunner, ActionRunnerTable, ActionTask, ActionTaskStep } from '../db/schema';

// The runner protocol's queries: runners registering and checking in, tasks (one attempt of a
// job on a runner) with their steps, outputs and log rows.

export async function insertRunner(db: DB, row: Insertable<ActionRunnerTable>): Promise<ActionRunner> {
  return db.insertInto('action_runner').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRunner(db: DB, id: number, patch: Partial<Pick<ActionRunner,
  'labels' | 'version' | 'last_online_unix' | 'last_active_unix' | 'updated_unix' | 'deleted_unix'>>): Promise<void> {
  await db.updateTable('action_runner').set(patch).where('id', '=', id).execute();
}

/** Waiting jobs not yet taken, oldest first, of the repositories a runner may serve. */
export async function waitingJobs(db: DB, scope: { ownerId: number; repoId: number }, limit: number): Promise<ActionRunJob[]> {
  let q = db.selectFrom('action_run_job').selectAll().where('status', '=', 'waiting').where('task_id', 'is', null);
  if (scope.repoId) q = q.where('repo_id', '=', scope.repoId);
  else if (scope.ownerId) q = q.where('owner_id', '=', scope.ownerId);
  return q.orderBy('updated_unix').orderBy('id').limit(limit).execute();
}

/** Takes the job for a task unless another runner was faster; false when it lost the race. */
export async function claimJob(db: DB, jobId: number, taskId: number, now: number): Promise<boolean> {
  const r = await db.updateTable('action_run_job')
    .set((eb) => ({ status: 'running', task_id: taskId, attempt: eb('attempt', '+', 1), started_unix: now, updated_unix: now }))
    .where('id', '=', jobId).where('status', '=', 'waiting').where('task_id', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertTask(db: DB, row: {
  job: ActionRunJob; runnerId: number; tokenHash: string; lastEight: string; now: number;
}): Promise<ActionTask> {
  const { job, now } = row;
  return db.insertInto('action_task').values({
    job_id: job.id, attempt: job.attempt + 1, runner_id: row.runnerId, status: 'running', repo_id: job.repo_id,
    owner_id: job.owner_id, commit_sha: job.commit_sha, token_hash: row.tokenHash, token_last_eight: row.lastEight,
    started_unix: now, created_unix: now, updated_unix: now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function insertSteps(db: DB, taskId: number, names: string[]): Promise<void> {
  if (!names.length) return;
  await db.insertInto('action_task_step')
    .values(names.map((name, idx) => ({ task_id: taskId, idx, name, status: 'waiting' }))).execute();
}

export const getTask = (db: DB, id: number) => db.selectFrom('action_task').selectAll().where('id', '=', id).executeTakeFirst();

export const stepsOfTask = (db: DB, taskId: number): Promise<ActionTaskStep[]> =>
  db.selectFrom('action_task_step').selectAll().where('task_id', '=', taskId).orderBy('idx').execute();

export async function updateStep(db: DB, taskId: number, idx: number, patch: Partial<Pick<ActionTaskStep,
  'status' | 'log_index' | 'log_length' | 'started_unix' | 'stopped_unix'>>): Promise<void> {
  await db.updateTable('action_task_step').set(patch).where('task_id', '=', taskId).where('idx', '=', idx).execute();
}

export async function finishTask(db: DB, taskId: number, status: string, stopped: number, now: number): Promise<boolean> {
  const r = await db.updateTable('action_task').set({ status, stopped_unix: stopped, updated_unix: now, token_hash: null })
    .where('id', '=', taskId).where('status', '=', 'running').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function touchTask(db: DB, taskId: number, now: number): Promise<void> {
  await db.updateTable('action_task').set({ updated_unix: now }).where('id', '=', taskId).execute();
}

/** Stores the outputs not stored yet (the first value of a key wins, as Gitea); every stored key. */
export async function addOutputs(db: DB, taskId: number, outputs: Record<string, string>): Promise<string[]> {
  const rows = Object.entries(outputs).map(([output_key, output_value]) => ({ task_id: taskId, output_key, output_value }));
  if (rows.length) await db.insertInto('action_task_output').values(rows).onConflict((oc) => oc.doNothing()).execute();
  const all = await db.selectFrom('action_task_output').select('output_key').where('task_id', '=', taskId).orderBy('id').execute();
  return all.map((r) => r.output_key);
}

/** Appends log rows from index `start` (the task's current length) and moves the length on. */
const LOG_ROWS_PER_INSERT = 2000;

export async function appendLogRows(db: DB, taskId: number, start: number, rows: { timeMs: number; content: string }[], now: number): Promise<void> {
  if (!rows.length) return;
  const size = rows.reduce((n, r) => n + Buffer.byteLength(r.content) + 1, 0);
  await db.transaction().execute(async (trx) => {
    // In slices: one statement of 10,000 rows would bind 40,000 values, past SQLite's limit (32,766).
    for (let at = 0; at < rows.length; at += LOG_ROWS_PER_INSERT) {
      await trx.insertInto('action_task_log')
        .values(rows.slice(at, at + LOG_ROWS_PER_INSERT).map((r, i) => ({ task_id: taskId, idx: start + at + i, time_ms: r.timeMs, content: r.content })))
        .onConflict((oc) => oc.doNothing()).execute();
    }
    await trx.updateTable('action_task').set((eb) => ({
      log_length: start + rows.length, log_size: eb('log_size', '+', size), updated_unix: now,
    })).where('id', '=', taskId).execute();
  });
}

/** The running task whose job token hashes to `hash`. */
export const runningTaskByTokenHash = (db: DB, hash: string) =>
  db.selectFrom('action_task').selectAll().where('token_hash', '=', hash).where('status', '=', 'running').executeTakeFirst();

/** Whether an ephemeral runner already got its one task. */
export async function runnerHasTask(db: DB, runnerId: number): Promise<boolean> {
  const row = await db.selectFrom('action_task').select('id').where('runner_id', '=', runnerId).limit(1).executeTakeFirst();
  return !!row;
}

/** Changes whenever a job is queued or taken: what runners compare to skip a fetch (Gitea's tasks_version). */
export async function tasksVersion(db: DB): Promise<number> {
  // Two scalar subqueries, not max() twice in one select: SQLite reads a lone max() off the end of
  // an index, while two in one select walk the whole table (every fetch of every runner).
  const row = await db.selectNoFrom((eb) => [
    eb.selectFrom('action_run_job').select((e) => e.fn.max('updated_unix').as('u')).as('u'),
    eb.selectFrom('action_run_job').select((e) => e.fn.max('id').as('i')).as('i'),
  ]).executeTakeFirst();
  return Number(row?.u ?? 0) * 1000 + (Number(row?.i ?? 0) % 1000);
}

/** A task whose job another runner claimed first. */
export async function deleteTask(db: DB, id: number): Promise<void> {
  await db.deleteFrom('action_task').where('id', '=', id).execute();
}
