import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import { moveFile } from '../../lib/move-file';
import { nodeTmpDir } from '../cluster/node-tmp';
import {
  attachmentUuidsOfComment, attachmentUuidsOfIssues, deleteAttachmentsOfComment, deleteAttachmentsOfIssues,
} from '../../models/attachment';
import type { Hearth } from '../../hearth';

// Attachment files: <data_dir>/attachments/<uuid[0]>/<uuid[1]>/<uuid>, as Gitea lays them out.

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

export function moveIntoStore(config: Config, tmpPath: string, uuid: string): string {
  const target = attachmentPath(config, uuid);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  moveFile(tmpPath, target);
  return target;
}

export function removeFile(file: string): void {
  fs.rmSync(file, { force: true });
}

/** Deletes the attachments (rows and files) of these issues and of their comments, for issue deletion. */
export async function deleteIssueAttachments(h: Hearth, issueIds: number[]): Promise<void> {
  const uuids = await attachmentUuidsOfIssues(h.db, issueIds);
  await deleteAttachmentsOfIssues(h.db, issueIds);
  for (const uuid of uuids) removeFile(attachmentPath(h.config, uuid));
}

/** Deletes a comment's attachments (rows and files), for comment deletion. */
export async function deleteCommentAttachments(h: Hearth, commentId: number): Promise<void> {
  const uuids = await attachmentUuidsOfComment(h.db, commentId);
  await deleteAttachmentsOfComment(h.db, commentId);
  for (const uuid of uuids) removeFile(attachmentPath(h.config, uuid));
}
