import type { Readable } from 'node:stream';
import type { DB } from '../../../db/connect';
import type { PackageBlob, User } from '../../../db/schema';
import { blobBySha256 } from '../../../models/package';
import { removeBlobFile, storeBlob, type StoredBlob } from '../blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../limits';
import { createPackageAndAddFile, deletePackageFile } from '../packages';
import { getFileOfVersion, getVersion } from '../queries';
import { appendUploadChunk, finishUploadSession, getUploadSession } from '../upload-session';
import { OCI } from './errors';
import { findBlobFile, TYPE, UPLOAD_VERSION } from '../../../models/package-container';
import type { Hearth } from '../../../hearth';

// Container blobs (Gitea's routers/api/packages/container/blob.go): every pushed blob is a file
// named by its digest in the image's internal `_upload` version; manifests link them into the
// versions of their tags.

export type ImageRef = { owner: User; image: string };
const SHA256_DIGEST = /^sha256:([a-f0-9]{64})$/;

/** The hex of a `sha256:` digest, or DIGEST_INVALID. */
export function digestHex(digest: string): string {
  const m = SHA256_DIGEST.exec(digest);
  if (!m) throw OCI.digestInvalid();
  return m[1]!;
}

/** A stored blob described by its row: linking it again writes no bytes. */
export const storedFromRow = (b: PackageBlob): StoredBlob => ({
  hashes: { md5: b.hash_md5, sha1: b.hash_sha1, sha256: b.hash_sha256, sha512: b.hash_sha512 }, size: b.size, created: false,
});

/** Adds a blob to the image's `_upload` version (creating the package and version when missing). */
export async function saveBlob(h: Hearth, ref: ImageRef, doer: User, blob: StoredBlob): Promise<string> {
  const digest = `sha256:${blob.hashes.sha256}`;
  await createPackageAndAddFile(h, {
    owner: ref.owner, creator: doer, type: TYPE, name: ref.image, version: UPLOAD_VERSION, versionIsInternal: true,
    file: { name: digest, isLead: false }, blob, overwrite: true,
  });
  return digest;
}

async function dropUnreferenced(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
}

/** A monolithic upload (POST ?digest= with the body): the bytes must hash to `digest`. */
export async function uploadMonolithic(h: Hearth, ref: ImageRef, doer: User, input: Readable, digest: string): Promise<string> {
  const hex = digestHex(digest);
  const blob = await storeBlob(h.blobs, input, {
    maxSize: uploadSizeLimit(h.config, doer, TYPE), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
  if (blob.hashes.sha256 !== hex) {
    await dropUnreferenced(h, blob);
    throw OCI.digestInvalid();
  }
  return saveBlob(h, ref, doer, blob);
}

/** Cross-repository mount: the blob when the owner has it in any image (else null: a new session). */
export async function mountBlob(h: Hearth, ref: ImageRef, doer: User, digest: string): Promise<string | null> {
  if (!SHA256_DIGEST.test(digest)) return null;
  const found = await findBlobFile(h.db, ref.owner.id, null, digest);
  if (!found) return null;
  return saveBlob(h, ref, doer, storedFromRow(found.blob));
}

/** Appends a chunk to a session; the Content-Range start (when sent) must be the bytes so far. */
export async function appendChunk(h: Hearth, doer: User, id: string, input: Readable, rangeStart?: number) {
  await sessionOrUnknown(h.db, id);
  return appendUploadChunk(h.db, h.blobs, id, input, rangeStart, uploadSizeLimit(h.config, doer, TYPE));
}

/** Ends a session: an optional last chunk, the digest check (DIGEST_INVALID), the blob saved. */
export async function finishUpload(h: Hearth, ref: ImageRef, doer: User, id: string, digest: string, last: Readable | null): Promise<string> {
  const hex = digestHex(digest);
  await sessionOrUnknown(h.db, id);
  if (last) await appendUploadChunk(h.db, h.blobs, id, last, undefined, uploadSizeLimit(h.config, doer, TYPE));
  let blob: StoredBlob;
  try {
    blob = await finishUploadSession(h.db, h.blobs, id, hex);
  } catch (err) {
    if ((err as { status?: number }).status === 400) throw OCI.digestInvalid();
    throw err;
  }
  return saveBlob(h, ref, doer, blob);
}

/** The session, or BLOB_UPLOAD_UNKNOWN. */
export async function sessionOrUnknown(db: DB, id: string) {
  try { return await getUploadSession(db, id); } catch { throw OCI.blobUploadUnknown(); }
}

/** A blob of the image, or BLOB_UNKNOWN. */
export async function getBlob(db: DB, ref: ImageRef, digest: string) {
  const found = SHA256_DIGEST.test(digest) ? await findBlobFile(db, ref.owner.id, ref.image, digest) : undefined;
  if (!found) throw OCI.blobUnknown();
  return found;
}

/** Removes a blob from the image's uploads (manifests that link it keep their copy). */
export async function deleteBlob(db: DB, ref: ImageRef, digest: string): Promise<void> {
  await getBlob(db, ref, digest);
  const uploads = await getVersion(db, ref.owner, TYPE, ref.image, UPLOAD_VERSION).catch(() => null);
  const file = uploads && (await getFileOfVersion(db, uploads.version, digest).catch(() => null));
  if (!file) throw OCI.blobUnknown();
  await deletePackageFile(db, file.file);
}
