import type { DB } from '../../db/connect';
import { addPendingOp, removePendingOp } from '../../models/pending-op';

// The write-ahead intent of two-step work: recorded (and committed) before the disk changes,
// removed in the transaction that completes the work (or once it is undone). If hearth stops in
// between (SIGKILL, power loss), the row survives and the next start hands it to its kind's
// recovery (recover.ts), which looks at what the database says and finishes or undoes the disk part.

export type IntentKind = 'repo.create' | 'repo.move' | 'owner.move' | 'repo.delete' | 'pull.merge' | 'push';

/** Records the intent on its own (outside any transaction, so it is durable before the work). */
export function recordIntent(db: DB, kind: IntentKind, payload: object): Promise<number> {
  return addPendingOp(db, kind, payload);
}

/** Completes the intent: call it inside the transaction that makes the work true, or after undoing it. */
export function clearIntent(dbOrTrx: DB, id: number): Promise<void> {
  return removePendingOp(dbOrTrx, id);
}
