import { nowUnix } from '../../lib/time';
import { abandonedJobs, abandonedUploads, artifactsToClean, expireLogs, runningTasks, setArtifactStatus } from '../../models/actions-engine-cleanup';
import { parseDuration } from '../cron/duration';
import { removeArtifactFile } from './artifact-files';
import { removeArtifactChunks } from './artifacts-v3-chunks';
import { removeUploadBlocks } from './artifacts-v4';
import type { Hearth } from '../../hearth';

// The Actions cron tasks (Gitea's services/actions/clear_tasks.go and cleanup.go), with the
// [actions] timeouts: a running task with no update for zombie_task_timeout, or running longer
// than endless_task_timeout, fails; a job waiting for a runner longer than abandoned_job_timeout
// is cancelled; logs older than log_retention_days, expired artifacts and abandoned uploads are deleted.
// The zombie, endless and abandoned checks run at start: the run engine they stop or cancel with
// (runs.ts, tasks.ts and the workflow and webhook modules behind them) loads only when one finds
// something, not on every start that finds nothing.

const stopTask = async (...a: Parameters<typeof import('./tasks').stopTask>) => (await import('./tasks')).stopTask(...a);
const cancelJob = async (...a: Parameters<typeof import('./runs').cancelJob>) => (await import('./runs')).cancelJob(...a);

const seconds = (d: string) => Math.floor(parseDuration(d) / 1000);

export async function stopZombieTasks(h: Hearth): Promise<string> {
  const tasks = await runningTasks(h.db, { updatedBefore: nowUnix() - seconds(h.config.actions.zombie_task_timeout) });
  for (const t of tasks) await stopTask(h, t.id, 'failure');
  return `${tasks.length} zombie task(s) stopped`;
}

export async function stopEndlessTasks(h: Hearth): Promise<string> {
  const tasks = await runningTasks(h.db, { startedBefore: nowUnix() - seconds(h.config.actions.endless_task_timeout) });
  for (const t of tasks) await stopTask(h, t.id, 'failure');
  return `${tasks.length} endless task(s) stopped`;
}

export async function cancelAbandonedJobs(h: Hearth): Promise<string> {
  const jobs = await abandonedJobs(h.db, nowUnix() - seconds(h.config.actions.abandoned_job_timeout));
  for (const j of jobs) await cancelJob(h, j.id, 'cancelled');
  return `${jobs.length} abandoned job(s) cancelled`;
}

export async function cleanupActions(h: Hearth): Promise<string> {
  const now = nowUnix();
  const days = h.config.actions.log_retention_days;
  const logs = days > 0 ? await expireLogs(h.db, now - days * 86400) : 0;
  const artifacts = await artifactsToClean(h.db, now);
  for (const a of artifacts) {
    await removeArtifactFile(h.blobs, a.storage_path);
    await setArtifactStatus(h.db, a.id, a.status === 'pending-deletion' ? 'deleted' : 'expired', now);
  }
  const abandoned = await removeAbandonedUploads(h, now);
  return `logs of ${logs} task(s), ${artifacts.length} artifact(s) and ${abandoned} abandoned upload(s) removed`;
}

/**
 * Uploads never confirmed (a runner that died, a job cancelled mid-upload) would keep their
 * chunks and blocks for as long as the run exists. An upload happens while its task runs, and no
 * task runs longer than endless_task_timeout: one older than that (and a day) is abandoned.
 */
async function removeAbandonedUploads(h: Hearth, now: number): Promise<number> {
  const uploads = await abandonedUploads(h.db, now - Math.max(86400, seconds(h.config.actions.endless_task_timeout)));
  for (const a of uploads) {
    await removeArtifactChunks(h.blobs, a.run_id, a.id);
    await removeUploadBlocks(h.blobs, a.run_id, a.id);
    await removeArtifactFile(h.blobs, a.storage_path);
    await setArtifactStatus(h.db, a.id, 'expired', now);
  }
  return uploads.length;
}
