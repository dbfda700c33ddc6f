import type { PendingOp } from '../../db/schema';
import { dialectOf } from '../../db/dialect';
import { listPendingOps, ownAllPendingOps, removePendingOp } from '../../models/pending-op';
import { nodeStaleMs } from '../cluster/node';
import { ownIntents } from './intent';
import { resyncAfterUncleanStop } from './unclean-stop';
import type { RECOVERIES } from './handlers';
import type { Hearth } from '../../hearth';

/** How long an adopter's claim on a dead node's intent holds before another node may take it. */
export const ADOPT_LEASE_MS = 5 * 60_000;

/**
 * Finishes or undoes the two-step work a crash interrupted (intent.ts): run at start, before the
 * server listens, so no request sees a half-moved repository. On SQLite this node is the only one:
 * every row is its own. On PostgreSQL it adopts the rows of nodes whose heartbeat expired (its
 * own earlier runs included); a live node's rows are its own business. A recovery that fails
 * keeps its row (tried again at the next start, or by the node that adopts it) and is logged.
 */
export async function recoverPendingOps(h: Hearth): Promise<number> {
  ownIntents(h.db, h.nodeId);
  if (dialectOf(h.db).engine === 'postgres') return adoptOrphanedIntents(h);
  const pending = await listPendingOps(h.db);
  if (pending.length) await ownAllPendingOps(h.db, h.nodeId);
  return runRecoveries(h, pending);
}

/**
 * PostgreSQL: claims and recovers the intents of dead nodes; how many were recovered. Then the
 * rows of dead nodes go, and the node that removed them (one, whichever) does what SQLite does
 * after an unclean stop: a node killed without a clean stop may have moved refs with no intent
 * (a branch deleted through the API), so the branch rows are resynced with git in the background.
 */
export async function adoptOrphanedIntents(h: Hearth, staleMs = nodeStaleMs(h)): Promise<number> {
  const [{ adoptPendingOps }, { deleteStaleNodes }] = await Promise.all([import('../../db/postgres/intents'), import('../../db/postgres/cluster')]);
  const adopted = await adoptPendingOps(h.db, h.nodeId, staleMs, ADOPT_LEASE_MS);
  const done = await runRecoveries(h, adopted);
  const dead = await deleteStaleNodes(h.db, staleMs);
  if (dead > 0) {
    h.log.warn({ nodes: dead }, 'nodes stopped without a clean stop: branch rows are resynced with git');
    await resyncAfterUncleanStop(h);
  }
  return done;
}

/**
 * Adopts dead nodes' intents every `everyMs` (by default the node timeout) while this node runs
 * (PostgreSQL; nothing on SQLite, where the start did it all). Returns the stop, which waits for
 * a round under way.
 */
export function watchOrphanedIntents(h: Hearth, everyMs = nodeStaleMs(h)): () => Promise<void> {
  if (dialectOf(h.db).engine !== 'postgres') return async () => {};
  let round: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    round = adoptOrphanedIntents(h).catch((err: unknown) => h.log.warn({ err }, 'adopting intents of dead nodes failed'));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}

async function runRecoveries(h: Hearth, pending: PendingOp[]): Promise<number> {
  let done = 0;
  // The recoveries (and the services they call) load only when a crash left work behind.
  const recoveries: Partial<typeof RECOVERIES> = pending.length ? (await import('./handlers')).RECOVERIES : {};
  for (const op of pending) {
    const recover = recoveries[op.kind];
    try {
      if (!recover) throw new Error(`no recovery for kind '${op.kind}'`);
      const outcome = await recover(h, JSON.parse(op.payload) as never);
      await removePendingOp(h.db, op.id);
      h.log.warn({ op: op.kind, payload: op.payload, outcome }, 'recovered work a crash interrupted');
      done++;
    } catch (err) {
      h.log.error({ err, op: op.kind, payload: op.payload }, 'could not recover work a crash interrupted; it is tried again at the next start');
    }
  }
  return done;
}
