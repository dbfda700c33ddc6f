import type { DB } from '../../db/connect';
import { attachmentKey } from '../issue/attachment-files';
import { blobKey } from '../packages/blob-store';
import { openBlobStorage } from '../../lib/blob-storage/open';
import { listAttachmentFiles, listPackageBlobs, listUploadedAvatars } from '../../models/maintenance';
import { reportOnly, type DoctorContext, type Findings } from './types';

// Rows whose file is gone. Only reported: the bytes cannot be brought back, and dropping the
// rows (issue attachments, release assets, package files) is for an administrator to decide.

export async function checkAttachmentFiles(db: DB, ctx: DoctorContext): Promise<Findings> {
  const problems: string[] = [];
  const store = await openBlobStorage(ctx.config);
  try {
    for (const a of await listAttachmentFiles(db)) {
      if (a.uuid.length < 2 || !(await store.stat(attachmentKey(a.uuid)))) problems.push(`attachment ${a.id} (${a.name}, ${a.uuid}): file missing`);
    }
  } finally {
    await store.close();
  }
  return reportOnly(problems);
}

/** Uploaded avatars are avatars/<hash>, earlier avatars/<user id>, in the blob storage (src/services/user/avatars.ts). */
export async function checkAvatarFiles(db: DB, ctx: DoctorContext): Promise<Findings> {
  const problems: string[] = [];
  const store = await openBlobStorage(ctx.config);
  try {
    for (const u of await listUploadedAvatars(db)) {
      const found = (/^[0-9a-f]{32}$/.test(u.avatar) && (await store.stat(`avatars/${u.avatar}`))) || (await store.stat(`avatars/${u.id}`));
      if (!found) problems.push(`avatar of ${u.name} (user ${u.id}): file missing`);
    }
  } finally {
    await store.close();
  }
  return reportOnly(problems);
}

export async function checkPackageBlobFiles(db: DB, ctx: DoctorContext): Promise<Findings> {
  const problems: string[] = [];
  // The configured store ([storage]): on disk a stat per file, in a bucket a HEAD per object.
  const store = await openBlobStorage(ctx.config);
  try {
    for (const b of await listPackageBlobs(db)) {
      let key: string;
      try {
        key = blobKey(b.hash_sha256);
      } catch {
        problems.push(`package blob ${b.id}: not a sha256: ${b.hash_sha256}`);
        continue;
      }
      if (!(await store.stat(key))) problems.push(`package blob ${b.id} (sha256 ${b.hash_sha256.slice(0, 12)}): file missing`);
    }
  } finally {
    await store.close();
  }
  return reportOnly(problems);
}
