import fs from 'node:fs';
import type { DB } from '../../db/connect';
import type { Attachment, User } from '../../db/schema';
import { detectContentType } from '../../lib/content-type';
import { NotFoundError } from '../../lib/errors';
import { countDownload, getAttachmentByUuid } from '../../models/attachment';
import { getIssueById } from '../../models/issue';
import { getRepoById } from '../../models/repo';
import { attachmentPath, readHead } from './attachment-files';
import { canRead, issueCtx } from './issue-access';
import { ACCESS } from '../permissions';
import { accessOf } from '../repo/repos';
import type { Hearth } from '../../hearth';

// GET /attachments/{uuid} (Gitea's ServeAttachment): whoever may read the issue, pull or
// release it belongs to; an attachment linked to nothing yet only by its uploader. Others get
// 404, so a private repository's files do not even show to exist.

export type Download = { attachment: Attachment; file: string; contentType: string };

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
  const file = attachmentPath(h.config, a.uuid);
  if (!fs.existsSync(file)) throw new NotFoundError();
  await countDownload(h.db, a.id);
  return { attachment: { ...a, download_count: a.download_count + 1 }, file, contentType: detectContentType(readHead(file)) };
}
