import type { DB } from '../db/connect';
import type { DeletedBranch } from '../db/schema';

/** Records a deletion; a branch deleted again keeps only its latest. */
export async function recordDeletedBranch(db: DB, row: Omit<DeletedBranch, 'id'>): Promise<void> {
  await db.insertInto('deleted_branch').values(row)
    .onConflict((oc) => oc.columns(['repo_id', 'name']).doUpdateSet({ commit_id: row.commit_id, deleted_by_id: row.deleted_by_id, deleted_unix: row.deleted_unix }))
    .execute();
}

/** Forgets deletions of branches that exist again. */
export async function forgetDeletedBranches(db: DB, repoId: number, names: string[]): Promise<void> {
  if (!names.length) return;
  await db.deleteFrom('deleted_branch').where('repo_id', '=', repoId).where('name', 'in', names).execute();
}

/** Newest deletion first. */
export async function listDeletedBranches(db: DB, repoId: number, limit: number): Promise<DeletedBranch[]> {
  return db.selectFrom('deleted_branch').selectAll().where('repo_id', '=', repoId)
    .orderBy('deleted_unix', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function getDeletedBranch(db: DB, repoId: number, id: number): Promise<DeletedBranch | undefined> {
  return db.selectFrom('deleted_branch').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
}

/** Deletions older than `before` (unix seconds), as Gitea's deleted_branches_cleanup; the number removed. */
export async function purgeDeletedBranches(db: DB, before: number): Promise<number> {
  const res = await db.deleteFrom('deleted_branch').where('deleted_unix', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
