import type { DB } from '../../db/connect';
import { addPendingOp, removePendingOp } from '../../models/pending-op';

// The write-ahead intent of two-step work: recorded (and committed) before the disk changes,
// removed in the transaction that completes the work (or once it is undone). If hearth stops in
// between (SIGKILL, power loss), the row survives and the next start hands it to its kind's
// recovery (recover.ts), which looks at what the database says and finishes or undoes the disk
// part. Each row names the node that recorded it: with several nodes on one PostgreSQL, another
// node adopts the rows of one whose heartbeat stopped.

export type IntentKind = 'repo.create' | 'repo.move' | 'owner.move' | 'repo.delete' | 'pull.merge' | 'push';

/** The node id of each server's database handle (set at its start; several servers share a test process). */
const owners = new WeakMap<DB, string>();

/** Intents recorded through `db` from now on name `nodeId` as their owner. */
export function ownIntents(db: DB, nodeId: string): void {
  owners.set(db, nodeId);
}

/**
 * Records the intent on its own (outside any transaction, so it is durable before the work).
 * Inside a transaction, `server` is the server's handle the transaction came from (it names the owner).
 */
export function recordIntent(db: DB, kind: IntentKind, payload: object, server: DB = db): Promise<number> {
  return addPendingOp(db, kind, payload, owners.get(server) ?? '');
}

/** Completes the intent: call it inside the transaction that makes the work true, or after undoing it. */
export function clearIntent(dbOrTrx: DB, id: number): Promise<void> {
  return removePendingOp(dbOrTrx, id);
}
