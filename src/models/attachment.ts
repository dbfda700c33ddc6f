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

/** An issue's own attachments (not its comments'), oldest first. */
export async function attachmentsOfIssues(db: DB, issueIds: number[]): Promise<Attachment[]> {
  if (!issueIds.length) return [];
  return db.selectFrom('attachment').selectAll()
    .where('issue_id', 'in', issueIds).where('comment_id', '=', 0).orderBy('id').execute();
}

export async function attachmentsOfComments(db: DB, commentIds: number[]): Promise<Attachment[]> {
  if (!commentIds.length) return [];
  return db.selectFrom('attachment').selectAll().where('comment_id', 'in', commentIds).orderBy('id').execute();
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
