import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { ProtectedBranch, ProtectedBranchTable } from '../db/schema';

/** A repository's branch rules, in stored priority order (lower first), then oldest first. */
export async function listProtectedBranches(db: DB, repoId: number): Promise<ProtectedBranch[]> {
  return db.selectFrom('protected_branch').selectAll().where('repo_id', '=', repoId)
    .orderBy('priority').orderBy('created_unix').orderBy('id').execute();
}

export async function getProtectedBranchByName(db: DB, repoId: number, ruleName: string): Promise<ProtectedBranch | undefined> {
  return db.selectFrom('protected_branch').selectAll()
    .where('repo_id', '=', repoId).where('rule_name', '=', ruleName).executeTakeFirst();
}

export async function insertProtectedBranch(db: DB, row: Insertable<ProtectedBranchTable>): Promise<ProtectedBranch> {
  return db.insertInto('protected_branch').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateProtectedBranch(db: DB, id: number, patch: Updateable<ProtectedBranchTable>): Promise<void> {
  await db.updateTable('protected_branch').set(patch).where('id', '=', id).execute();
}

export async function deleteProtectedBranch(db: DB, id: number): Promise<void> {
  await db.deleteFrom('protected_branch').where('id', '=', id).execute();
}

export async function maxProtectedBranchPriority(db: DB, repoId: number): Promise<number> {
  const row = await db.selectFrom('protected_branch').select((eb) => eb.fn.max('priority').as('max'))
    .where('repo_id', '=', repoId).executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Sets one rule's priority; rules of other repositories are left alone. */
export async function setProtectedBranchPriority(db: DB, repoId: number, id: number, priority: number): Promise<void> {
  await db.updateTable('protected_branch').set({ priority }).where('id', '=', id).where('repo_id', '=', repoId).execute();
}
