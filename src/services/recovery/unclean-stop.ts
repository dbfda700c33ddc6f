import type { Hearth } from '../../hearth';
import { listRepoDirs } from '../../git/repo';
import { removeStaleLocks } from '../../git/stale-locks';
import { enqueueJob, type JobQueue } from '../jobs/queue';

// After a stop that was not clean (the pid lock of a killed process was taken over), refs that
// moved without an intent (a branch deleted or a tag made through the API, a pull request's head
// updated, a mirror synced, when the kill came between git and the database) may have left branch
// rows behind git. A background job resyncs them as `hearth doctor --fix` would, once per such start.

const RESYNC_JOB = 'recovery.branch-rows';

export function registerRecoveryJobs(jobs: JobQueue, h: Hearth): void {
  jobs.register(RESYNC_JOB, {
    backoff: () => 60,
    handler: async () => {
      // The doctor's checks load with the job, not at every start.
      const { checkBranchRows } = await import('../doctor/repo-checks');
      const ctx = { config: h.config, fix: true, fsckTimeoutMs: 0, stamp: '', signal: new AbortController().signal };
      const found = await checkBranchRows(h.db, ctx);
      if (found.fixed.length || found.problems.length) {
        h.log.warn({ fixed: found.fixed, problems: found.problems }, 'branch rows checked against git after an unclean stop');
      }
    },
  });
}

/**
 * Called at a start that took over a killed process's lock, before the server listens: the git
 * lock files the killed process's git children left (none of ours can be running yet) are
 * removed, then the branch rows are resynced in the background.
 */
export async function resyncAfterUncleanStop(h: Hearth): Promise<void> {
  const startedAt = Date.now() - process.uptime() * 1000;
  const removed = listRepoDirs(h.config.repository.root).flatMap((dir) => removeStaleLocks(dir, startedAt));
  if (removed.length) h.log.warn({ files: removed }, 'removed git lock files a killed process left');
  await enqueueJob(h.db, { kind: RESYNC_JOB, payload: {} });
}
