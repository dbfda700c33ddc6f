import type { DB } from '../db/connect';
import { precompiled } from '../db/precompiled';
import type { Branch } from '../db/schema';

export async function listBranchRows(db: DB, repoId: number): Promise<Branch[]> {
  return db.selectFrom('branch').selectAll().where('repo_id', '=', repoId).orderBy('name').execute();
}

/** The names of a repository's branches (a form's select of them), compiled once. */
const branchNamesStatement = precompiled(1, (db: DB, repoId: number) => db.selectFrom('branch').select('name').where('repo_id', '=', repoId));

export async function listBranchNames(db: DB, repoId: number): Promise<string[]> {
  return (await branchNamesStatement(db, repoId)).map((b) => b.name);
}

export async function getBranchRow(db: DB, repoId: number, name: string): Promise<Branch | undefined> {
  return db.selectFrom('branch').selectAll().where('repo_id', '=', repoId).where('name', '=', name).executeTakeFirst();
}

export type BranchHead = { name: string; commit_id: string; commit_message: string; commit_unix: number };

export async function upsertBranch(db: DB, repoId: number, head: BranchHead, pusherId: number, now: number): Promise<void> {
  await db.insertInto('branch')
    .values({ repo_id: repoId, ...head, pusher_id: pusherId, created_unix: now, updated_unix: now })
    .onConflict((oc) => oc.columns(['repo_id', 'name']).doUpdateSet({
      commit_id: head.commit_id, commit_message: head.commit_message, commit_unix: head.commit_unix,
      pusher_id: pusherId, updated_unix: now,
    }))
    .execute();
}

export async function deleteBranchRows(db: DB, repoId: number, names: string[]): Promise<void> {
  if (!names.length) return;
  await db.deleteFrom('branch').where('repo_id', '=', repoId).where('name', 'in', names).execute();
}

export async function renameBranchRow(db: DB, repoId: number, from: string, to: string): Promise<void> {
  await db.updateTable('branch').set({ name: to }).where('repo_id', '=', repoId).where('name', '=', from).execute();
}

/** One page of branches, most recently committed first (Gitea's order), then by name. */
export async function listBranchRowsPage(db: DB, repoId: number, offset: number, limit: number): Promise<Branch[]> {
  return db.selectFrom('branch').selectAll().where('repo_id', '=', repoId)
    .orderBy('commit_unix', 'desc').orderBy('name').limit(limit).offset(offset).execute();
}

export async function countBranchRows(db: DB, repoId: number): Promise<number> {
  const row = await db.selectFrom('branch').select((eb) => eb.fn.countAll<number>().as('n')).where('repo_id', '=', repoId).executeTakeFirst();
  return Number(row?.n ?? 0);
}
