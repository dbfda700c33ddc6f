import type { DB } from '../db/connect';
import type { HookTask } from '../db/schema';

// Webhook deliveries (hook_task): one row per delivery, its attempts counted on the row.

export type NewHookTask = { hookId: number; uuid: string; event: string; eventType: string; payload: string; redelivery?: boolean; now: number };

export async function insertHookTask(db: DB, t: NewHookTask): Promise<number> {
  const row = await db.insertInto('hook_task').values({
    hook_id: t.hookId, uuid: t.uuid, event: t.event, event_type: t.eventType, payload_content: t.payload,
    is_redelivery: t.redelivery ? 1 : 0, created_unix: Math.floor(t.now / 1000),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const getHookTask = (db: DB, id: number): Promise<HookTask | undefined> =>
  db.selectFrom('hook_task').selectAll().where('id', '=', id).executeTakeFirst();

export const getHookTaskOfHook = (db: DB, hookId: number, id: number): Promise<HookTask | undefined> =>
  db.selectFrom('hook_task').selectAll().where('id', '=', id).where('hook_id', '=', hookId).executeTakeFirst();

export type DeliveryOutcome = {
  attempts: number; succeeded: boolean; statusCode: number; durationMs: number; request: string; response: string; at: number;
};

export async function recordHookDelivery(db: DB, id: number, o: DeliveryOutcome): Promise<void> {
  await db.updateTable('hook_task').set({
    is_delivered: 1, is_succeed: o.succeeded ? 1 : 0, attempts: o.attempts, status_code: o.statusCode,
    duration_ms: o.durationMs, request_content: o.request, response_content: o.response, delivered_unix: o.at,
  }).where('id', '=', id).execute();
}

/** A page of a hook's deliveries, newest first, and how many there are. */
export async function listHookTasks(db: DB, hookId: number, offset: number, limit: number): Promise<{ items: HookTask[]; total: number }> {
  const [items, count] = await Promise.all([
    db.selectFrom('hook_task').selectAll().where('hook_id', '=', hookId).orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    db.selectFrom('hook_task').select((eb) => eb.fn.countAll<number>().as('n')).where('hook_id', '=', hookId).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}
