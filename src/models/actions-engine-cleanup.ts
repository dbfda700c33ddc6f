import type { DB } from '../db/connect';

// The queries of the Actions cron tasks: stuck tasks and jobs, expired logs and artifacts.

/** Running tasks not updated since `before` (zombies) or started before `startedBefore` (endless). */
export const runningTasks = (db: DB, f: { updatedBefore?: number; startedBefore?: number }, limit = 500) => {
  let q = db.selectFrom('action_task').select(['id', 'job_id']).where('status', '=', 'running');
  if (f.updatedBefore !== undefined) q = q.where('updated_unix', '<', f.updatedBefore);
  if (f.startedBefore !== undefined) q = q.where('started_unix', '<', f.startedBefore);
  return q.orderBy('id').limit(limit).execute();
};

/** Jobs waiting (for a runner or for their needs) unchanged since before `before`, as Gitea's CancelAbandonedJobs. */
export const abandonedJobs = (db: DB, before: number, limit = 500) =>
  db.selectFrom('action_run_job').select(['id']).where('status', 'in', ['waiting', 'blocked']).where('updated_unix', '<', before)
    .orderBy('id').limit(limit).execute();

/** Drops the log rows of tasks stopped before `before`; how many tasks. */
export async function expireLogs(db: DB, before: number): Promise<number> {
  const tasks = await db.selectFrom('action_task').select('id').where('log_expired', '=', 0)
    .where('stopped_unix', 'is not', null).where('stopped_unix', '<', before).limit(1000).execute();
  for (const t of tasks) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('action_task_log').where('task_id', '=', t.id).execute();
      await trx.updateTable('action_task').set({ log_expired: 1 }).where('id', '=', t.id).execute();
    });
  }
  return tasks.length;
}

/** Artifacts past their expiry (confirmed) or asked to be deleted: their storage paths. */
export const artifactsToClean = (db: DB, now: number) =>
  db.selectFrom('action_artifact').select(['id', 'status', 'storage_path'])
    .where((eb) => eb.or([
      eb.and([eb('status', '=', 'confirmed'), eb('expired_unix', '>', 0), eb('expired_unix', '<', now)]),
      eb('status', '=', 'pending-deletion'),
    ])).limit(1000).execute();

/** Uploads still pending that nothing touched since `before`: their task is long gone. */
export const abandonedUploads = (db: DB, before: number) =>
  db.selectFrom('action_artifact').select(['id', 'run_id', 'storage_path']).where('status', '=', 'pending')
    .where('updated_unix', '<', before).limit(1000).execute();

export async function setArtifactStatus(db: DB, id: number, status: string, now: number): Promise<void> {
  await db.updateTable('action_artifact').set({ status, updated_unix: now }).where('id', '=', id).execute();
}
