import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';

// Deliveries of webhooks (hook_task) pile up; cleanup_hook_task_table removes delivered ones.
// Plain SQL: the task must also run against a database whose hook_task table is not there yet.

export const tableExists = (db: DB, name: string): Promise<boolean> => dialectOf(db).tableExists(db, name);

/** Delivered rows delivered before `beforeMs` (delivered_unix is in unix ms); returns how many. */
export async function deleteDeliveredBefore(db: DB, beforeMs: number): Promise<number> {
  const r = await sql`DELETE FROM hook_task WHERE is_delivered = 1 AND delivered_unix < ${beforeMs}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** All but the `keep` newest delivered rows of each existing webhook; returns how many went. */
export async function deleteDeliveredBeyond(db: DB, keep: number): Promise<number> {
  const r = await sql`DELETE FROM hook_task WHERE id IN (
    SELECT id FROM (
      SELECT id, ROW_NUMBER() OVER (PARTITION BY hook_id ORDER BY delivered_unix DESC, id DESC) AS newest
      FROM hook_task WHERE is_delivered = 1 AND hook_id IN (SELECT id FROM webhook)
    ) AS ranked WHERE newest > ${keep}
  )`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
