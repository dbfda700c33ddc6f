import { listPendingOps, removePendingOp } from '../../models/pending-op';
import type { RECOVERIES } from './handlers';
import type { Hearth } from '../../hearth';

/**
 * Finishes or undoes the two-step work a crash interrupted (intent.ts): run at start, before the
 * server listens, so no request sees a half-moved repository. A recovery that fails keeps its row
 * (tried again at the next start) and is logged; the others go on.
 */
export async function recoverPendingOps(h: Hearth): Promise<number> {
  let done = 0;
  const pending = await listPendingOps(h.db);
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
