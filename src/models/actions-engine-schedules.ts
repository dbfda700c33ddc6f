import type { Insertable } from 'kysely';
import type { DB } from '../db/connect';
import type { ActionScheduleTable } from '../db/schema';

// action_schedule (a scheduled workflow of a repository's default branch) and its cron specs.

export async function replaceSchedules(
  db: DB, repoId: number, rows: { schedule: Insertable<ActionScheduleTable>; specs: { spec: string; next: number }[] }[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('action_schedule').where('repo_id', '=', repoId).execute();
    for (const r of rows) {
      const s = await trx.insertInto('action_schedule').values(r.schedule).returning('id').executeTakeFirstOrThrow();
      for (const spec of r.specs) {
        await trx.insertInto('action_schedule_spec').values({ schedule_id: s.id, repo_id: repoId, spec: spec.spec, next_unix: spec.next, prev_unix: 0 }).execute();
      }
    }
  });
}

export const dueSpecs = (db: DB, now: number, limit: number) =>
  db.selectFrom('action_schedule_spec').selectAll().where('next_unix', '<=', now).where('next_unix', '>', 0)
    .orderBy('next_unix').limit(limit).execute();

export const getSchedule = (db: DB, id: number) => db.selectFrom('action_schedule').selectAll().where('id', '=', id).executeTakeFirst();

export async function advanceSpec(db: DB, id: number, prev: number, next: number): Promise<void> {
  await db.updateTable('action_schedule_spec').set({ prev_unix: prev, next_unix: next }).where('id', '=', id).execute();
}

export const schedulesOfRepo = (db: DB, repoId: number) =>
  db.selectFrom('action_schedule').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
