import type { DB } from '../../db/connect';
import { nowUnix } from '../../lib/time';
import { abandonedJobs, artifactsToClean, expireLogs, runningTasks, setArtifactStatus } from '../../models/actions-engine-cleanup';
import { parseDuration } from '../cron/duration';
import { removeArtifactFile } from './artifact-files';
import { cancelJob, type ActionsDeps } from './runs';
import { stopTask } from './tasks';

// The Actions cron tasks (Gitea's services/actions/clear_tasks.go and cleanup.go), with the
// [actions] timeouts: a running task with no update for zombie_task_timeout, or running longer
// than endless_task_timeout, fails; a job waiting for a runner longer than abandoned_job_timeout
// is cancelled; logs older than log_retention_days and expired artifacts are deleted.

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
  return `logs of ${logs} task(s) and ${artifacts.length} artifact(s) removed`;
}
