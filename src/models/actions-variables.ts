import type { DB } from '../db/connect';
import type { ActionVariable } from '../db/schema';
import type { ActionsScope, PageWindow } from './actions-secrets';

// Actions variables (Gitea's models/actions/variable.go): plain values, one name per scope.

const scoped = (db: DB, s: ActionsScope) =>
  db.selectFrom('action_variable').where('owner_id', '=', s.ownerId).where('repo_id', '=', s.repoId);

export async function getVariable(db: DB, s: ActionsScope, name: string): Promise<ActionVariable | undefined> {
  return scoped(db, s).selectAll().where('name', '=', name).executeTakeFirst();
}

/** One page of a scope's variables by name, and how many there are. */
export async function listVariables(db: DB, s: ActionsScope, page: PageWindow): Promise<{ rows: ActionVariable[]; total: number }> {
  const n = await scoped(db, s).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await scoped(db, s).selectAll().orderBy('name').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(n.n) };
}

/** Every variable a task of `repoId` (owned by `ownerId`) sees: instance, owner and repository ones. */
export async function variablesForRepo(db: DB, ownerId: number, repoId: number): Promise<ActionVariable[]> {
  return db.selectFrom('action_variable').selectAll()
    .where((eb) => eb.or([
      eb.and([eb('owner_id', '=', 0), eb('repo_id', '=', 0)]),
      eb.and([eb('owner_id', '=', ownerId), eb('repo_id', '=', 0)]),
      eb.and([eb('owner_id', '=', 0), eb('repo_id', '=', repoId)]),
    ]))
    .execute();
}

export async function insertVariable(
  db: DB, s: ActionsScope, row: { name: string; data: string; description: string; created_unix: number; updated_unix: number },
): Promise<void> {
  await db.insertInto('action_variable').values({ owner_id: s.ownerId, repo_id: s.repoId, ...row }).execute();
}

export async function updateVariable(
  db: DB, id: number, patch: { name: string; data: string; description: string; updated_unix: number },
): Promise<void> {
  await db.updateTable('action_variable').set(patch).where('id', '=', id).execute();
}

export async function deleteVariable(db: DB, id: number): Promise<void> {
  await db.deleteFrom('action_variable').where('id', '=', id).execute();
}
