import type { DB } from '../db/connect';
import type { CronRun } from '../db/schema';

// The cluster's cron runs (0053): a run first takes its (task, slot) row; the unique index makes
// a second taker of the same slot (a leader during a fail-over) find it taken.

/** How long finished runs are kept (the admin page shows the last one of each task). */
const KEPT_MS = 7 * 24 * 3_600_000;

export type NewCronRun = { task: string; slot: string; node: string; reason: string; started: number };

/** Takes the slot; false when another run (of any node) has it already. */
export async function claimCronSlot(db: DB, run: NewCronRun): Promise<boolean> {
  const r = await db.insertInto('cron_run').values(run).onConflict((oc) => oc.columns(['task', 'slot']).doNothing()).executeTakeFirst();
  const taken = Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  if (taken) await db.deleteFrom('cron_run').where('task', '=', run.task).where('started', '<', run.started - KEPT_MS).execute();
  return taken;
}

export async function finishCronRun(db: DB, task: string, slot: string, end: { status: string; message: string; finished: number; ms: number }): Promise<void> {
  await db.updateTable('cron_run').set({ ...end, message: end.message.slice(0, 4096) }).where('task', '=', task).where('slot', '=', slot).execute();
}

/** Each task's latest run (by start). */
export function lastCronRuns(db: DB): Promise<CronRun[]> {
  return db.selectFrom('cron_run').selectAll()
    .where('id', 'in', (eb) => eb.selectFrom('cron_run').select((e) => e.fn.max('id').as('id')).groupBy('task')).execute();
}

export function cronRunsOf(db: DB, task: string): Promise<CronRun[]> {
  return db.selectFrom('cron_run').selectAll().where('task', '=', task).orderBy('id').execute();
}
