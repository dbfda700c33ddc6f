import type { DB } from '../db/connect';
import type { ActionRunner } from '../db/schema';
import type { PageWindow } from './actions-secrets';

// Actions runners (Gitea's models/actions/runner.go). Deleting is soft, as Gitea's: the row keeps
// deleted_unix and is no runner any more for listings, lookups and the protocol.

/** Listing filter as Gitea's FindRunnerOptions: repository, owner, or (both 0) every runner. */
export type RunnerFilter = { ownerId: number; repoId: number; disabled?: boolean };

function filtered(db: DB, f: RunnerFilter) {
  let q = db.selectFrom('action_runner').where('deleted_unix', 'is', null);
  if (f.repoId) q = q.where('repo_id', '=', f.repoId);
  else if (f.ownerId) q = q.where('owner_id', '=', f.ownerId).where('repo_id', '=', 0);
  if (f.disabled !== undefined) q = q.where('disabled', '=', f.disabled ? 1 : 0);
  return q;
}

export async function listRunners(db: DB, f: RunnerFilter, page: PageWindow): Promise<{ rows: ActionRunner[]; total: number }> {
  const n = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await filtered(db, f).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(n.n) };
}

export async function getRunnerById(db: DB, id: number): Promise<ActionRunner | undefined> {
  return db.selectFrom('action_runner').selectAll().where('id', '=', id).where('deleted_unix', 'is', null).executeTakeFirst();
}

export async function getRunnerByUuid(db: DB, uuid: string): Promise<ActionRunner | undefined> {
  return db.selectFrom('action_runner').selectAll().where('uuid', '=', uuid).where('deleted_unix', 'is', null).executeTakeFirst();
}

export async function setRunnerDisabled(db: DB, id: number, disabled: boolean, now: number): Promise<void> {
  await db.updateTable('action_runner').set({ disabled: disabled ? 1 : 0, updated_unix: now }).where('id', '=', id).execute();
}

export async function softDeleteRunner(db: DB, id: number, now: number): Promise<void> {
  await db.updateTable('action_runner').set({ deleted_unix: now, updated_unix: now }).where('id', '=', id).execute();
}

/** Which of `ids` run a task right now (Gitea shows them busy). */
export async function runnersWithRunningTask(db: DB, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('action_task').select('runner_id').distinct()
    .where('runner_id', 'in', ids).where('status', '=', 'running').execute();
  return new Set(rows.map((r) => r.runner_id));
}
