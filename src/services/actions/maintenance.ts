import type { DB } from '../../db/connect';
import { nowUnix } from '../../lib/time';
import { abandonedJobs, abandonedUploads, artifactsToClean, expireLogs, runningTasks, setArtifactStatus } from '../../models/actions-engine-cleanup';
import { parseDuration } from '../cron/duration';
import { removeArtifactFile } from './artifact-files';
import { removeArtifactChunks } from './artifacts-v3-chunks';
import { removeUploadBlocks } from './artifacts-v4';
import { cancelJob, type ActionsDeps } from './runs';
import { stopTask } from './tasks';

// The Actions cron tasks (Gitea's services/actions/clear_tasks.go and cleanup.go), with the
// [actions] timeouts: a running task with no update for zombie_task_timeout, or running longer
// than endless_task_timeout, fails; a job waiting for a runner longer than abandoned_job_timeout
// is cancelled; logs older than log_retention_days, expired artifacts and abandoned uploads are deleted.

const seconds = (d: string) => Math.floor(parseDuration(d) / 1000);

export async function stopZombieTasks(db: DB, deps: ActionsDeps): Promise<string> {
  const tasks = await runningTasks(db, { updatedBefore: nowUnix() - seconds(deps.config.actions.zombie_task_timeout) });
  for (const t of tasks) await stopTask(db, deps, t.id, 'failure');
  return `${tasks.length} zombie task(s) stopped`;
}

export async function stopEndlessTasks(db: DB, deps: ActionsDeps): Promise<string> {
  const tasks = await runningTasks(db, { startedBefore: nowUnix() - seconds(deps.config.actions.endless_task_timeout) });
  for (const t of tasks) await stopTask(db, deps, t.id, 'failure');
  return `${tasks.length} endless task(s) stopped`;
}

export async function cancelAbandonedJobs(db: DB, deps: ActionsDeps): Promise<string> {
  const jobs = await abandonedJobs(db, nowUnix() - seconds(deps.config.actions.abandoned_job_timeout));
  for (const j of jobs) await cancelJob(db, deps, j.id, 'cancelled');
  return `${jobs.length} abandoned job(s) cancelled`;
}

export async function cleanupActions(db: DB, deps: ActionsDeps): Promise<string> {
  const now = nowUnix();
  const days = deps.config.actions.log_retention_days;
  const logs = days > 0 ? await expireLogs(db, now - days * 86400) : 0;
  const artifacts = await artifactsToClean(db, now);
  for (const a of artifacts) {
    removeArtifactFile(deps.config, a.storage_path);
    await setArtifactStatus(db, a.id, a.status === 'pending-deletion' ? 'deleted' : 'expired', now);
  }
  const abandoned = await removeAbandonedUploads(db, deps, now);
  return `logs of ${logs} task(s), ${artifacts.length} artifact(s) and ${abandoned} abandoned upload(s) removed`;
}

/**
 * Uploads never confirmed (a runner that died, a job cancelled mid-upload) would keep their
 * chunks and blocks for as long as the run exists. An upload happens while its task runs, and no
 * task runs longer than endless_task_timeout: one older than that (and a day) is abandoned.
 */
async function removeAbandonedUploads(db: DB, deps: ActionsDeps, now: number): Promise<number> {
  const uploads = await abandonedUploads(db, now - Math.max(86400, seconds(deps.config.actions.endless_task_timeout)));
  for (const a of uploads) {
    removeArtifactChunks(deps.config, a.run_id, a.id);
    removeUploadBlocks(deps.config, a.run_id, a.id);
    removeArtifactFile(deps.config, a.storage_path);
    await setArtifactStatus(db, a.id, 'expired', now);
  }
  return uploads.length;
}
