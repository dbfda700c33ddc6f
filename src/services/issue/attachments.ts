import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { Attachment, Comment, Issue, User } from '../../db/schema';
import { checkAllowedType } from '../../lib/content-type';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  deleteAttachmentRow, getAttachmentById, insertAttachment, renameAttachment, touchAttachmentOwner,
} from '../../models/attachment';
import { getCommentById } from '../../models/comment';
import { commentAttachments, getIssueById, issueAttachments } from '../../models/issue';
import { moveIntoStore, readHead, removeAttachmentFile, removeFile } from './attachment-files';
import { canRead, canWrite, issueCtx, readableIssue } from './issue-access';
import { ACCESS } from '../permissions';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Attachments of issues and comments (Gitea's issue_attachment.go / issue_comment_attachment.go):
// readers of the issue list and get them; the issue's poster, its unit's writers and admins
// change an issue's; a comment's poster or an admin, with write on the unit, change a comment's.

export type AttachmentTarget =
  | { kind: 'issue'; access: RepoAccess; issue: Issue }
  | { kind: 'comment'; access: RepoAccess; issue: Issue; comment: Comment };

const isAdmin = (access: RepoAccess, doer: User | null) => !!doer && (doer.is_admin === 1 || access.mode >= ACCESS.admin);

export async function issueTarget(db: DB, access: RepoAccess, doer: User | null, index: number, write: boolean): Promise<AttachmentTarget> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  if (write && !(doer && (doer.id === issue.poster_id || isAdmin(access, doer) || canWrite(ctx, issue.is_pull)))) {
    throw new ForbiddenError('user should have permission to write issue');
  }
  return { kind: 'issue', access, issue };
}

export async function commentTarget(db: DB, access: RepoAccess, doer: User | null, commentId: number, write: boolean): Promise<AttachmentTarget> {
  const comment = Number.isSafeInteger(commentId) && commentId > 0 ? await getCommentById(db, commentId) : undefined;
  const issue = comment ? await getIssueById(db, comment.issue_id) : undefined;
  if (!comment || !issue || issue.repo_id !== access.repo.id) throw new NotFoundError('no matching issue comment found');
  const ctx = await issueCtx(db, access, doer);
  if (!canRead(ctx, issue.is_pull)) throw new NotFoundError('no matching issue comment found');
  if (write && !(doer && (doer.id === comment.poster_id || isAdmin(access, doer)) && canWrite(ctx, issue.is_pull))) {
    throw new ForbiddenError('user should have permission to edit comment');
  }
  return { kind: 'comment', access, issue, comment };
}

export const listAttachments = (db: DB, t: AttachmentTarget): Promise<Attachment[]> =>
  t.kind === 'issue' ? issueAttachments(db, [t.issue.id]) : commentAttachments(db, [t.comment.id]);

/** `{attachment_id}` of the target, else 404 with Gitea's reason. */
export async function getAttachment(db: DB, t: AttachmentTarget, id: number): Promise<Attachment> {
  const a = Number.isSafeInteger(id) && id > 0 ? await getAttachmentById(db, id) : undefined;
  if (!a) throw new NotFoundError(`attachment does not exist [id: ${id}]`);
  if (a.repo_id !== t.access.repo.id) throw new NotFoundError('no such attachment in repo');
  if (t.kind === 'issue' && (!a.issue_id || a.issue_id !== t.issue.id)) throw new NotFoundError('no such attachment in issue');
  if (t.kind === 'comment' && (!a.comment_id || a.comment_id !== t.comment.id)) throw new NotFoundError('no such attachment in comment');
  return a;
}

export type Upload = { tmpPath: string; originalName: string; size: number };

/** Stores a received upload under a new UUID; the spooled file is consumed either way. */
export async function storeAttachment(
  h: Hearth, t: AttachmentTarget, doer: User, file: Upload, name: string | undefined,
): Promise<Attachment> {
  const uuid = crypto.randomUUID();
  let stored = false;
  try {
    const fileName = name || file.originalName;
    const refused = checkAllowedType(readHead(file.tmpPath), fileName, h.config.attachment.allowed_types);
    if (refused) throw new InvalidError(refused);
    await moveIntoStore(h, file.tmpPath, uuid);
    stored = true;
    const now = nowUnix();
    const commentId = t.kind === 'comment' ? t.comment.id : 0;
    const row = await h.db.transaction().execute(async (tx) => {
      const inserted = await insertAttachment(tx, {
        uuid, repo_id: t.access.repo.id, issue_id: t.issue.id, comment_id: commentId,
        uploader_id: doer.id, name: fileName, size: file.size, created_unix: now,
      });
      await touchAttachmentOwner(tx, { issueId: t.issue.id, commentId }, now);
      return inserted;
    });
    stored = false;
    return row;
  } finally {
    removeFile(file.tmpPath);
    if (stored) await removeAttachmentFile(h, uuid);
  }
}

/** PATCH: only the name changes (an empty one keeps it), checked against the allowed types. */
export async function editAttachment(h: Hearth, t: AttachmentTarget, id: number, name: string): Promise<Attachment> {
  const a = await getAttachment(h.db, t, id);
  if (!name) return a;
  // As Gitea, a rename is checked by its extension alone (no content: sniffed as text).
  const refused = checkAllowedType(Buffer.alloc(0), name, h.config.attachment.allowed_types);
  if (refused) throw new InvalidError(refused);
  await renameAttachment(h.db, a.id, name);
  return { ...a, name };
}

export async function deleteAttachment(h: Hearth, t: AttachmentTarget, id: number): Promise<void> {
  const a = await getAttachment(h.db, t, id);
  await deleteAttachmentRow(h.db, a.id);
  await removeAttachmentFile(h, a.uuid);
}
