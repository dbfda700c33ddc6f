import type { DB } from '../db/connect';
import type { DependencyAlert } from '../db/schema';

export type AlertState = 'open' | 'dismissed' | 'fixed';

export const alertsOfRepo = (db: DB, repoId: number): Promise<DependencyAlert[]> =>
  db.selectFrom('dependency_alert').selectAll().where('repo_id', '=', repoId).execute();

/** Newest first; `state` narrows. */
export async function listAlerts(db: DB, repoId: number, state: AlertState | undefined, page: { offset: number; limit: number }) {
  let q = db.selectFrom('dependency_alert').where('repo_id', '=', repoId);
  if (state) q = q.where('state', '=', state);
  const [alerts, count] = await Promise.all([
    q.selectAll().orderBy('index', 'desc').limit(page.limit).offset(page.offset).execute(),
    q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { alerts, total: Number(count.n) };
}

export const getAlertByIndex = (db: DB, repoId: number, index: number) =>
  db.selectFrom('dependency_alert').selectAll().where('repo_id', '=', repoId).where('index', '=', index).executeTakeFirst();

export type NewAlert = { advisory_id: number; ecosystem: string; package: string; version: string; manifest_path: string };

/** A new open alert with the repository's next index; call it in a transaction. */
export async function insertAlert(db: DB, repoId: number, a: NewAlert, now: number): Promise<DependencyAlert> {
  const max = await db.selectFrom('dependency_alert').select((e) => e.fn.max<number>('index').as('m'))
    .where('repo_id', '=', repoId).executeTakeFirst();
  return db.insertInto('dependency_alert')
    .values({ ...a, repo_id: repoId, index: Number(max?.m ?? 0) + 1, state: 'open', created_unix: now, updated_unix: now })
    .returningAll().executeTakeFirstOrThrow();
}

export async function setAlertState(
  db: DB, id: number, patch: { state: AlertState; dismiss_reason?: string; dismissed_by?: number; fixed_unix?: number }, now: number,
): Promise<void> {
  await db.updateTable('dependency_alert').set({ ...patch, updated_unix: now }).where('id', '=', id).execute();
}
