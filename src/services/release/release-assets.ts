import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connect';
import type { Attachment, Release, User } from '../../db/schema';
import { checkAllowedType, detectContentType } from '../../lib/content-type';
import { BadRequestError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  countDownload, deleteAttachmentRow, getAttachmentById, insertAttachment, renameAttachment,
} from '../../models/attachment';
import { getReleaseRowByTag, latestReleaseRow } from '../../models/release';
import { assetByName, assetsOfReleases } from '../../models/release-asset';
import type { Download } from '../issue/attachment-download';
import { attachmentKey, moveIntoStore, readHead, removeAttachmentFile, removeFile, storedHead, uploadTmpDir } from '../issue/attachment-files';
import { ACCESS } from '../permissions';
import { mayWriteReleases, releaseMode, visibleRelease } from './releases';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Release assets (Gitea's release_attachment.go): attachment rows with release_id, files in the
// shared attachment store. Any type is allowed: Gitea checks [repository.release] ALLOWED_TYPES,
// empty (any) by default, which hearth does not have; [attachment] allowed_types is for issues.

const RELEASE_ALLOWED_TYPES = '';

export async function listAssets(
  db: DB, access: RepoAccess, doer: User | null, releaseId: number,
): Promise<{ release: Release; assets: Attachment[] }> {
  const release = await visibleRelease(db, access, doer, releaseId);
  return { release, assets: await assetsOfReleases(db, [release.id]) };
}

/** `{attachment_id}` of the release, else 404. */
export async function getAsset(
  db: DB, access: RepoAccess, doer: User | null, releaseId: number, assetId: number,
): Promise<{ release: Release; asset: Attachment }> {
  const release = await visibleRelease(db, access, doer, releaseId);
  const asset = Number.isSafeInteger(assetId) && assetId > 0 ? await getAttachmentById(db, assetId) : undefined;
  if (!asset || asset.release_id !== release.id) throw new NotFoundError();
  return { release, asset };
}

export type ReceivedUpload = { tmpPath: string; originalName: string; size: number };

/**
 * Stores an uploaded asset under a new UUID: named by `?name=` or else the multipart file name
 * (400 when neither gives one, or when the type is not allowed). The spooled file is consumed.
 */
export async function storeAsset(
  h: Hearth, access: RepoAccess, doer: User, release: Release, file: ReceivedUpload, name: string | undefined,
): Promise<Attachment> {
  const uuid = crypto.randomUUID();
  let stored = false;
  try {
    const fileName = name || file.originalName;
    if (!fileName) throw new BadRequestError('Could not determine name of attachment.');
    const refused = checkAllowedType(readHead(file.tmpPath), fileName, RELEASE_ALLOWED_TYPES);
    if (refused) throw new BadRequestError(refused);
    await moveIntoStore(h, file.tmpPath, uuid);
    stored = true;
    const row = await insertAttachment(h.db, {
      uuid, repo_id: access.repo.id, release_id: release.id, uploader_id: doer.id, name: fileName, size: file.size, created_unix: nowUnix(),
    });
    stored = false;
    return row;
  } finally {
    removeFile(file.tmpPath);
    if (stored) await removeAttachmentFile(h, uuid);
  }
}

/** PATCH: a new name (empty keeps it), checked against the allowed types by its extension. */
export async function renameAsset(
  h: Hearth, access: RepoAccess, doer: User, releaseId: number, assetId: number, name: string,
): Promise<{ release: Release; asset: Attachment }> {
  const { release, asset } = await getAsset(h.db, access, doer, releaseId, assetId);
  if (!name) return { release, asset };
  const refused = checkAllowedType(Buffer.alloc(0), name, RELEASE_ALLOWED_TYPES);
  if (refused) throw new InvalidError(refused);
  await renameAttachment(h.db, asset.id, name);
  return { release, asset: { ...asset, name } };
}

export async function deleteAsset(h: Hearth, access: RepoAccess, doer: User, releaseId: number, assetId: number): Promise<void> {
  const { asset } = await getAsset(h.db, access, doer, releaseId, assetId);
  await deleteAttachmentRow(h.db, asset.id);
  await removeAttachmentFile(h, asset.uuid);
}

/** The release of `tag` for a download; "latest" names the latest release when no tag has that name, as Gitea. */
async function downloadRelease(db: DB, access: RepoAccess, viewer: User | null, tag: string): Promise<Release | undefined> {
  const row = await getReleaseRowByTag(db, access.repo.id, tag);
  if (row && !row.is_tag) return row.is_draft && !(await mayWriteReleases(db, access, viewer)) ? undefined : row;
  return tag === 'latest' && !row ? latestReleaseRow(db, access.repo.id) : undefined;
}

/**
 * GET /{owner}/{repo}/releases/download/{tag}/{name} (Gitea's RedirectDownload): an asset by
 * tag and file name for readers of the releases unit, else 404. Counts the download.
 */
export async function openReleaseAsset(
  h: Hearth, access: RepoAccess, viewer: User | null, tag: string, name: string,
): Promise<Download> {
  if ((await releaseMode(h.db, access, viewer)) < ACCESS.read) throw new NotFoundError();
  const release = await downloadRelease(h.db, access, viewer, tag);
  const asset = release ? await assetByName(h.db, release.id, name) : undefined;
  if (!asset) throw new NotFoundError();
  const stat = await h.blobs.stat(attachmentKey(asset.uuid));
  if (!stat) throw new NotFoundError();
  const contentType = detectContentType(await storedHead(h, asset.uuid));
  await countDownload(h.db, asset.id);
  return {
    attachment: { ...asset, download_count: asset.download_count + 1 }, size: stat.size, contentType,
    key: attachmentKey(asset.uuid),
    open: (range) => h.blobs.open(attachmentKey(asset.uuid), range),
  };
}

/** A file of the release form (held in memory by the page's multipart parser): spooled, then stored as an upload is. */
export async function storeFormAsset(
  h: Hearth, access: RepoAccess, doer: User, release: Release, file: { buffer: Buffer; originalName: string },
): Promise<Attachment> {
  const dir = uploadTmpDir(h);
  fs.mkdirSync(dir, { recursive: true });
  const tmpPath = path.join(dir, `web-${crypto.randomUUID()}`);
  fs.writeFileSync(tmpPath, file.buffer);
  return storeAsset(h, access, doer, release, { tmpPath, originalName: path.basename(file.originalName), size: file.buffer.length }, undefined);
}
