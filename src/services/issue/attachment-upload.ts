import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import type { Attachment, User } from '../../db/schema';
import { checkAllowedType } from '../../lib/content-type';
import { InvalidError } from '../../lib/errors';
import { uploadTmpDir } from './attachment-files';
import { storeAttachment, type AttachmentTarget } from './attachments';
import type { Hearth } from '../../hearth';

// A file sent with a web form (the new issue and comment forms): received in memory by the
// page's multipart parser, checked before the issue or comment it belongs to is written (so a
// refused file leaves nothing half-made), then stored through the API's attachment service.

export type FormFile = { buffer: Buffer; originalName: string };

/** The largest file a web form takes: [attachment] max_size (MB), held in memory, so capped. */
export const formFileMaxBytes = (config: Config): number => Math.min(config.attachment.max_size, 64) * 1024 * 1024;

/** Refuses what the attachment service would refuse, naming the form's `attachment` field. */
export function checkFormFile(config: Config, file: FormFile): void {
  if (!config.attachment.enabled) throw new InvalidError('Attachments are turned off on this site.', 'attachment');
  if (!file.buffer.length) throw new InvalidError('The file is empty.', 'attachment');
  const refused = checkAllowedType(file.buffer.subarray(0, 512), file.originalName, config.attachment.allowed_types);
  if (refused) throw new InvalidError(refused, 'attachment');
}

/** Spools the bytes where uploads arrive and stores them on the target (its rules apply). */
export async function storeFormFile(h: Hearth, t: AttachmentTarget, doer: User, file: FormFile): Promise<Attachment> {
  const dir = uploadTmpDir(h);
  fs.mkdirSync(dir, { recursive: true });
  const tmpPath = path.join(dir, `web-${crypto.randomUUID()}`);
  fs.writeFileSync(tmpPath, file.buffer);
  return storeAttachment(h, t, doer, { tmpPath, originalName: path.basename(file.originalName) || 'file', size: file.buffer.length }, undefined);
}
