import type { Readable } from 'node:stream';
import type { ByteRange } from '../../lib/blob-storage/storage';
import type { DB } from '../../db/connect';
import type { Attachment, User } from '../../db/schema';
import { detectContentType } from '../../lib/content-type';
import { NotFoundError } from '../../lib/errors';
import { countDownload, getAttachmentByUuid } from '../../models/attachment';
import { getIssueById } from '../../models/issue';
import { getRepoById } from '../../models/repo';
import { attachmentKey, storedHead } from './attachment-files';
import { canRead, issueCtx } from './issue-access';
import { ACCESS } from '../permissions';
import { accessOf } from '../repo/repos';
import type { Hearth } from '../../hearth';

// GET /attachments/{uuid} (Gitea's ServeAttachment): whoever may read the issue, pull or
// release it belongs to; an attachment linked to nothing yet only by its uploader. Others get
// 404, so a private repository's files do not even show to exist.

export type Download = {
  attachment: Attachment; size: number; contentType: string;
  /** Where the bytes are in the blob storage (for [storage] serve_direct's redirect). */
  key: string;
  /** The bytes, whole or the inclusive range (from the blob storage). */
  open: (range?: ByteRange) => Promise<Readable>;
};

async function mayRead(db: DB, a: Attachment, viewer: User | null): Promise<boolean> {
  if (!a.repo_id && !a.issue_id) return !!viewer && viewer.id === a.uploader_id;
  const issue = a.issue_id ? await getIssueById(db, a.issue_id) : undefined;
  const repo = await getRepoById(db, issue?.repo_id ?? a.repo_id);
  if (!repo) return false;
  const access = await accessOf(db, repo, viewer);
  if (!issue) return access.mode >= ACCESS.read;
  return canRead(await issueCtx(db, access, viewer), issue.is_pull);
}

export async function openAttachment(h: Hearth, uuid: string, viewer: User | null): Promise<Download> {
  const a = /^[0-9a-f-]{36}$/i.test(uuid) ? await getAttachmentByUuid(h.db, uuid.toLowerCase()) : undefined;
  if (!a || !(await mayRead(h.db, a, viewer))) throw new NotFoundError();
  const stat = await h.blobs.stat(attachmentKey(a.uuid));
  if (!stat) throw new NotFoundError();
  const contentType = detectContentType(await storedHead(h, a.uuid));
  await countDownload(h.db, a.id);
  return {
    attachment: { ...a, download_count: a.download_count + 1 }, size: stat.size, contentType, key: attachmentKey(a.uuid),
    open: (range) => h.blobs.open(attachmentKey(a.uuid), range),
  };
}
