import type { Hearth } from '../../hearth';
import { listRepoDirs } from '../../git/repo';
import { removeStaleLocks, STALE_LOCK_MS } from '../../git/stale-locks';
import { dialectOf } from '../../db/dialect';
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
 * Called at a start that took over a killed process's lock (SQLite), or by the node that removed
 * a dead node's row (PostgreSQL), before the server listens: the git lock files the killed
 * process's git children left are removed, then the branch rows are resynced in the background.
 */
export async function resyncAfterUncleanStop(h: Hearth): Promise<void> {
  const removed = removeDebrisLocks(h, await othersLive(h));
  if (removed.length) h.log.warn({ files: removed }, 'removed git lock files a killed process left');
  await enqueueJob(h.db, { kind: RESYNC_JOB, payload: {} });
}

/** PostgreSQL: whether another node has a live heartbeat (its git may hold a lock right now). */
async function othersLive(h: Hearth): Promise<boolean> {
  if (dialectOf(h.db).engine !== 'postgres') return false;
  const [{ liveNodes }, { nodeStaleMs }] = await Promise.all([import('../../db/postgres/cluster'), import('../cluster/node')]);
  return (await liveNodes(h.db, nodeStaleMs(h))).some((n) => n.id !== h.nodeId);
}

/**
 * The git lock files no running git can hold. With no other live node (SQLite's pid lock, or no
 * other heartbeat on PostgreSQL: a single node restarted after a crash), none of this server's
 * git children runs yet, so every lock older than this process is debris: kept, a fresh one would
 * refuse every move of its ref (409) for an hour. With live nodes on the shared repositories,
 * one may be pushing right now: only locks past STALE_LOCK_MS go (git holds one for milliseconds).
 */
export function removeDebrisLocks(h: Hearth, othersLive: boolean): string[] {
  const before = othersLive ? Date.now() - STALE_LOCK_MS : Date.now() - process.uptime() * 1000;
  return listRepoDirs(h.config.repository.root).flatMap((dir) => removeStaleLocks(dir, before));
}
