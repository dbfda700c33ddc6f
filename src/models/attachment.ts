import { sql, type Insertable } from 'kysely';
import type { DB } from '../db/connect';
import type { Attachment, AttachmentTable } from '../db/schema';

// Attachment rows; the files live under <data_dir>/attachments (services/attachments.ts).

export async function insertAttachment(db: DB, row: Insertable<AttachmentTable>): Promise<Attachment> {
  return db.insertInto('attachment').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getAttachmentById(db: DB, id: number): Promise<Attachment | undefined> {
  return db.selectFrom('attachment').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getAttachmentByUuid(db: DB, uuid: string): Promise<Attachment | undefined> {
  return db.selectFrom('attachment').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function renameAttachment(db: DB, id: number, name: string): Promise<void> {
  await db.updateTable('attachment').set({ name }).where('id', '=', id).execute();
}

export async function deleteAttachmentRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('attachment').where('id', '=', id).execute();
}

export async function countDownload(db: DB, id: number): Promise<void> {
  await db.updateTable('attachment').set({ download_count: sql`download_count + 1` }).where('id', '=', id).execute();
}

/** UUIDs of every attachment of these issues (and their comments), to remove the files with them. */
export async function attachmentUuidsOfIssues(db: DB, issueIds: number[]): Promise<string[]> {
  if (!issueIds.length) return [];
  const rows = await db.selectFrom('attachment').select('uuid').where('issue_id', 'in', issueIds).execute();
  return rows.map((r) => r.uuid);
}

export async function deleteAttachmentsOfIssues(db: DB, issueIds: number[]): Promise<void> {
  if (!issueIds.length) return;
  await db.deleteFrom('attachment').where('issue_id', 'in', issueIds).execute();
}

/** An upload edits its issue or comment: their update time follows, as in Gitea. */
export async function touchAttachmentOwner(db: DB, owner: { issueId: number; commentId: number }, now: number): Promise<void> {
  if (owner.commentId) await db.updateTable('comment').set({ updated_unix: now }).where('id', '=', owner.commentId).execute();
  else await db.updateTable('issue').set({ updated_unix: now }).where('id', '=', owner.issueId).execute();
}

export async function attachmentUuidsOfComment(db: DB, commentId: number): Promise<string[]> {
  const rows = await db.selectFrom('attachment').select('uuid').where('comment_id', '=', commentId).execute();
  return rows.map((r) => r.uuid);
}

export async function deleteAttachmentsOfComment(db: DB, commentId: number): Promise<void> {
  await db.deleteFrom('attachment').where('comment_id', '=', commentId).execute();
}

/** UUIDs of every attachment of a repository (issues, comments, releases), read before it is deleted. */
export async function attachmentUuidsOfRepo(db: DB, repoId: number): Promise<string[]> {
  const rows = await db.selectFrom('attachment').select('uuid').where('repo_id', '=', repoId).execute();
  return rows.map((r) => r.uuid);
}

/** Deletes every attachment row of a repository (issues, comments, releases); their UUIDs, for the files. */
export async function deleteAttachmentsOfRepo(db: DB, repoId: number): Promise<string[]> {
  const rows = await db.deleteFrom('attachment').where('repo_id', '=', repoId).returning('uuid').execute();
  return rows.map((r) => r.uuid);
}
