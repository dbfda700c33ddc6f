import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import { nodeTmpDir } from '../cluster/node-tmp';
import {
  attachmentUuidsOfComment, attachmentUuidsOfIssues, deleteAttachmentsOfComment, deleteAttachmentsOfIssues,
} from '../../models/attachment';
import type { Hearth } from '../../hearth';

// Attachment files (issue and comment attachments, release assets) in the blob storage under
// attachments/<uuid[0]>/<uuid[1]>/<uuid>, as Gitea lays them out: on local disk that is the
// data directory's attachments/ as before.

export const attachmentKey = (uuid: string) => `attachments/${uuid[0]}/${uuid[1]}/${uuid}`;

/** Where an attachment is with [storage] type = "local". */
export const attachmentPath = (config: Config, uuid: string) =>
  path.join(config.server.data_dir, 'attachments', uuid[0]!, uuid[1]!, uuid);

/**
 * Where uploads are spooled while they arrive: this node's temp directory (cluster/node-tmp.ts:
 * swept at start when its node is gone), on the data directory's file system, so a rename stores them.
 */
export const uploadTmpDir = (h: { config: Config; nodeId: string }) => nodeTmpDir(h);

export function readHead(file: string, bytes = 512): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, fs.readSync(fd, buf, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** Stores a spooled upload as the attachment `uuid` (the spooled file is consumed). */
export async function moveIntoStore(h: Hearth, tmpPath: string, uuid: string): Promise<void> {
  await h.blobs.putFile(attachmentKey(uuid), tmpPath);
}

/** Removes an attachment's bytes (missing is fine). */
export async function removeAttachmentFile(h: Hearth, uuid: string): Promise<void> {
  if (uuid.length >= 2) await h.blobs.remove(attachmentKey(uuid));
}

/** The first bytes of a stored attachment, to sniff its type. */
export async function storedHead(h: Hearth, uuid: string, bytes = 512): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of await h.blobs.open(attachmentKey(uuid), { start: 0, end: bytes - 1 })) out.push(c as Buffer);
  return Buffer.concat(out).subarray(0, bytes);
}

export function removeFile(file: string): void {
  fs.rmSync(file, { force: true });
}

/** Deletes the attachments (rows and files) of these issues and of their comments, for issue deletion. */
export async function deleteIssueAttachments(h: Hearth, issueIds: number[]): Promise<void> {
  const uuids = await attachmentUuidsOfIssues(h.db, issueIds);
  await deleteAttachmentsOfIssues(h.db, issueIds);
  for (const uuid of uuids) await removeAttachmentFile(h, uuid);
}

/** Deletes a comment's attachments (rows and files), for comment deletion. */
export async function deleteCommentAttachments(h: Hearth, commentId: number): Promise<void> {
  const uuids = await attachmentUuidsOfComment(h.db, commentId);
  await deleteAttachmentsOfComment(h.db, commentId);
  for (const uuid of uuids) await removeAttachmentFile(h, uuid);
}
