import type { DB } from '../db/connect';
import type { PendingOp } from '../db/schema';

// Intents of two-step disk and database work (migration 0036; services/recovery), each owned by
// the node that recorded it (0055; '' when unknown).

export async function addPendingOp(db: DB, kind: string, payload: object, owner = ''): Promise<number> {
  const row = await db.insertInto('pending_op')
    .values({ kind, payload: JSON.stringify(payload), created_unix: Math.floor(Date.now() / 1000), owner })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function removePendingOp(db: DB, id: number): Promise<void> {
  await db.deleteFrom('pending_op').where('id', '=', id).execute();
}

export function listPendingOps(db: DB): Promise<PendingOp[]> {
  return db.selectFrom('pending_op').selectAll().orderBy('id').execute();
}

/** The rows of one kind, oldest first. */
export function listPendingOpsOfKind(db: DB, kind: string): Promise<PendingOp[]> {
  return db.selectFrom('pending_op').selectAll().where('kind', '=', kind).orderBy('id').execute();
}

/** Makes `owner` the owner of every row (SQLite: the one node recovers them all). */
export async function ownAllPendingOps(db: DB, owner: string): Promise<void> {
  await db.updateTable('pending_op').set({ owner }).where('owner', '<>', owner).execute();
}
