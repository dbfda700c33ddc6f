import type { Hearth } from '../../hearth';
import { nodeStaleMs } from '../cluster/node';

// Cron on several nodes over one PostgreSQL (issue 35), loaded only there: one leader at a time,
// the holder of a session advisory lock on a dedicated connection (TCP keepalives: a vanished
// leader's session ends and its lock with it). The others try again every retry period and take
// over; a slot a fail-over could run twice is guarded by its cron_run row (models/cron-run.ts).

/** Any fixed number: the cluster's cron leader holds this session lock. */
export const CRON_LEADER_LOCK = 0x68656172746372; // "heartcr"
export const LEADER_RETRY_MS = 5_000;
/** The leader's lock session is named so (pg_stat_activity): the site administration shows who leads. */
export const CRON_LEADER_SESSION = 'hearth cron leader ';

/**
 * `term()`: a signal that aborts when this node's current term as leader ends (its lock's
 * connection gone, or the stop), so that a task it runs (a repository gc) stops rather than run on
 * beside the new leader's; already aborted while this node does not lead.
 */
export type Leadership = { isLeader: () => boolean; term: () => AbortSignal; stop: () => Promise<void> };

const ended = AbortSignal.abort(new Error('not the cron leader'));

/**
 * Campaigns for leadership until stopped. `elected(first)` runs each time this node becomes the
 * leader; `first` when no other node was live at this node's start (a cold start of the cluster:
 * what run_at_start means here, not a fail-over nor a node joining a running cluster).
 */
export async function campaign(h: Hearth, retryMs: number, elected: (first: boolean) => void): Promise<Leadership> {
  const [{ sessionLock }, { liveNodes }] = await Promise.all([import('../../db/postgres/session-lock'), import('../../db/postgres/cluster')]);
  const alone = (await liveNodes(h.db, nodeStaleMs(h))).every((n) => n.id === h.nodeId);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let electedBefore = false;
  let term: AbortController | null = null;
  const endTerm = (why: string) => {
    term?.abort(new Error(why));
    term = null;
  };
  const lock = sessionLock(h.config.database.url, CRON_LEADER_LOCK, (err) => {
    h.log.warn({ err }, 'cron leadership lost (its database connection ended): trying to take it again');
    endTerm('cron leadership lost');
    schedule();
  }, CRON_LEADER_SESSION + h.nodeId);
  const attempt = async () => {
    timer = null;
    if (stopped) return;
    try {
      if (await lock.tryTake()) {
        if (stopped) return;
        h.log.info({ node: h.nodeId }, 'this node is the cron leader');
        term = new AbortController();
        elected(alone && !electedBefore);
        electedBefore = true;
        return;
      }
    } catch (err) {
      h.log.warn({ err }, 'cron leadership: the database is unreachable');
    }
    schedule();
  };
  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => { void attempt(); }, retryMs);
    timer.unref();
  };
  await attempt();
  return {
    isLeader: () => !stopped && lock.held(),
    term: () => term?.signal ?? ended,
    async stop() {
      stopped = true;
      endTerm('the cron scheduler stopped');
      if (timer) clearTimeout(timer);
      await lock.close();
    },
  };
}
