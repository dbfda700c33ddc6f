import { sql } from 'kysely';
import type { DB } from '../db/connect';
import type { ActionArtifact, ActionRun, ActionRunJob, ActionTask, ActionTaskLog, ActionTaskStep } from '../db/schema';
import { V4_ENCODING } from './actions-artifacts-v4';
import type { PageWindow } from './actions-secrets';

// Reading runs, jobs, tasks and artifacts for the REST API (Gitea's FindRunOptions,
// FindRunJobOptions, FindTaskOptions, FindArtifactsOptions). Scope: repoId, else ownerId (the
// repository owner), else everything.

export type RunFilter = {
  ownerId?: number; repoId?: number; triggerEvent?: string; ref?: string; statuses?: string[];
  triggerUserId?: number; commitSha?: string; workflowId?: string;
};
export type JobFilter = { ownerId?: number; repoId?: number; runId?: number; statuses?: string[] };

function runsWhere(db: DB, f: RunFilter) {
  let q = db.selectFrom('action_run');
  if (f.repoId) q = q.where('repo_id', '=', f.repoId);
  else if (f.ownerId) q = q.where('owner_id', '=', f.ownerId);
  if (f.triggerEvent) q = q.where('trigger_event', '=', f.triggerEvent);
  if (f.ref) q = q.where('ref', '=', f.ref);
  if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
  if (f.triggerUserId !== undefined) q = q.where('trigger_user_id', '=', f.triggerUserId);
  if (f.commitSha) q = q.where('commit_sha', '=', f.commitSha);
  if (f.workflowId) q = q.where('workflow_id', '=', f.workflowId);
  return q;
}

/** Newest first, as Gitea orders runs. */
export async function findRuns(db: DB, f: RunFilter, page: PageWindow): Promise<{ rows: ActionRun[]; total: number }> {
  const n = await runsWhere(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await runsWhere(db, f).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(n.n) };
}

export async function getRunOfRepo(db: DB, repoId: number, id: number): Promise<ActionRun | undefined> {
  return db.selectFrom('action_run').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
}

export async function runsByIds(db: DB, ids: number[]): Promise<ActionRun[]> {
  if (!ids.length) return [];
  return db.selectFrom('action_run').selectAll().where('id', 'in', [...new Set(ids)]).execute();
}

export async function deleteRunRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('action_run').where('id', '=', id).execute();
}

function jobsWhere(db: DB, f: JobFilter) {
  let q = db.selectFrom('action_run_job');
  if (f.repoId) q = q.where('repo_id', '=', f.repoId);
  else if (f.ownerId) q = q.where('owner_id', '=', f.ownerId);
  if (f.runId) q = q.where('run_id', '=', f.runId);
  if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
  return q;
}

export async function findJobs(db: DB, f: JobFilter, page: PageWindow): Promise<{ rows: ActionRunJob[]; total: number }> {
  const n = await jobsWhere(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await jobsWhere(db, f).selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(n.n) };
}

export async function getJobOfRepo(db: DB, repoId: number, id: number): Promise<ActionRunJob | undefined> {
  return db.selectFrom('action_run_job').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
}

/** The ids of each run's jobs in order: a job's index in its run makes its web address. */
export async function jobIdsOfRuns(db: DB, runIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!runIds.length) return out;
  const rows = await db.selectFrom('action_run_job').select(['id', 'run_id']).where('run_id', 'in', [...new Set(runIds)]).orderBy('id').execute();
  for (const r of rows) out.set(r.run_id, [...(out.get(r.run_id) ?? []), r.id]);
  return out;
}

export async function tasksByIds(db: DB, ids: number[]): Promise<ActionTask[]> {
  if (!ids.length) return [];
  return db.selectFrom('action_task').selectAll().where('id', 'in', [...new Set(ids)]).execute();
}

export async function stepsOfTasks(db: DB, taskIds: number[]): Promise<ActionTaskStep[]> {
  if (!taskIds.length) return [];
  return db.selectFrom('action_task_step').selectAll().where('task_id', 'in', [...new Set(taskIds)]).orderBy('idx').execute();
}

export async function runnerNames(db: DB, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('action_runner').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A repository's tasks, newest first. */
export async function findTasks(db: DB, repoId: number, page: PageWindow): Promise<{ rows: ActionTask[]; total: number }> {
  const base = db.selectFrom('action_task').where('repo_id', '=', repoId);
  const n = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(n.n) };
}

export async function jobsByIds(db: DB, ids: number[]): Promise<ActionRunJob[]> {
  if (!ids.length) return [];
  return db.selectFrom('action_run_job').selectAll().where('id', 'in', [...new Set(ids)]).execute();
}

export async function logRows(db: DB, taskId: number): Promise<ActionTaskLog[]> {
  return db.selectFrom('action_task_log').selectAll().where('task_id', '=', taskId).orderBy('idx').execute();
}

export type ArtifactFilter = { repoId: number; runId?: number; name?: string };

/**
 * Gitea's FindArtifactsOptions{FinalizedArtifactsV4}: uploaded (confirmed or expired) v4
 * artifacts, one zip each; the API does not show v1-v3 ones, which have no single id.
 */
export async function findArtifacts(db: DB, f: ArtifactFilter): Promise<ActionArtifact[]> {
  let q = db.selectFrom('action_artifact').selectAll().where('repo_id', '=', f.repoId).where('status', 'in', ['confirmed', 'expired'])
    .where('content_encoding', '=', V4_ENCODING).where(sql<boolean>`artifact_path = artifact_name || '.zip'`);
  if (f.runId) q = q.where('run_id', '=', f.runId);
  if (f.name) q = q.where('artifact_name', '=', f.name);
  return q.orderBy('id').execute();
}

export async function getArtifactOfRepo(db: DB, repoId: number, id: number): Promise<ActionArtifact | undefined> {
  return db.selectFrom('action_artifact').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
}

export type ArtifactMeta = { artifact_name: string; file_size: number; status: 'confirmed' | 'expired' };

/**
 * A run's uploaded artifacts by name, v4 and v1-v3 alike (Gitea's ListUploadedArtifactsMeta):
 * the files' sizes summed, expired when any file is.
 */
export async function uploadedArtifactsMeta(db: DB, repoId: number, runId: number): Promise<ArtifactMeta[]> {
  const rows = await db.selectFrom('action_artifact')
    .select((eb) => ['artifact_name', eb.fn.sum<number | string>('file_size').as('size'), eb.fn.max('status').as('status')])
    .where('repo_id', '=', repoId).where('run_id', '=', runId).where('status', 'in', ['confirmed', 'expired'])
    .groupBy('artifact_name').orderBy((eb) => eb.fn.min('id')).execute();
  // 'expired' sorts after 'confirmed': the max is expired when any file is.
  return rows.map((r) => ({ artifact_name: r.artifact_name, file_size: Number(r.size), status: r.status === 'expired' ? 'expired' : 'confirmed' }));
}

/** Every row of one artifact (v1-v3 uploads keep a row per file; v4 one). */
export async function artifactRows(db: DB, runId: number, name: string): Promise<ActionArtifact[]> {
  return db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('artifact_name', '=', name).orderBy('id').execute();
}

export async function artifactsOfRun(db: DB, runId: number): Promise<ActionArtifact[]> {
  return db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).execute();
}

export async function markArtifactsDeleted(db: DB, runId: number, name: string, now: number): Promise<void> {
  await db.updateTable('action_artifact').set({ status: 'pending-deletion', updated_unix: now })
    .where('run_id', '=', runId).where('artifact_name', '=', name).execute();
}

/** A run by its number in the repository (the web's `/actions/runs/{index}`). */
export async function getRunByIndex(db: DB, repoId: number, index: number): Promise<ActionRun | undefined> {
  return db.selectFrom('action_run').selectAll().where('repo_id', '=', repoId).where('run_index', '=', index).executeTakeFirst();
}

/** The log lines of a task from line `from` on, in order. */
export async function logRowsFrom(db: DB, taskId: number, from: number): Promise<ActionTaskLog[]> {
  return db.selectFrom('action_task_log').selectAll().where('task_id', '=', taskId).where('idx', '>=', from).orderBy('idx').execute();
}
