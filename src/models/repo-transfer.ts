import type { DB } from '../db/connect';
import type { RepoTransfer } from '../db/schema';

export async function getPendingTransfer(db: DB, repoId: number): Promise<RepoTransfer | undefined> {
  return db.selectFrom('repo_transfer').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
}

export async function insertTransfer(db: DB, row: { repo_id: number; doer_id: number; recipient_id: number; team_ids: number[]; now: number }): Promise<void> {
  await db.insertInto('repo_transfer').values({
    repo_id: row.repo_id, doer_id: row.doer_id, recipient_id: row.recipient_id,
    team_ids: JSON.stringify(row.team_ids), created_unix: row.now,
  }).execute();
}

export async function deleteTransfer(db: DB, repoId: number): Promise<void> {
  await db.deleteFrom('repo_transfer').where('repo_id', '=', repoId).execute();
}
