import type { User } from '../../../db/schema';
import { BadRequestError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { removeBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile, type Created } from '../packages';
import { field, pypiMetadata, type PypiFields } from './metadata';
import { normalizePypiName, validPypiFilename, validPypiName, validPypiVersion } from './names';
import type { Hearth } from '../../../hearth';

// Gitea's UploadPackageFile (routers/api/packages/pypi): the file has been streamed into the blob
// store already; here the form is checked and the rows are written. Anything refused leaves no
// version, no row and (unless other rows use the same bytes) no blob file behind.

export const PYPI = 'pypi';

export type PypiUpload = {
  owner: User;
  creator: User;
  /** The multipart form's text fields. */
  fields: PypiFields;
  /** The `content` part's file name and its stored bytes. */
  filename: string;
  blob: StoredBlob;
};

/** Removes a stored blob's file when no row references it (a refused or failed upload). */
export async function discardPypiBlob(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
}

/** The checks Gitea makes, in its order: the digest, then name and version; plus the file name. */
function check(u: PypiUpload): { name: string; version: string } {
  if (field(u.fields, 'sha256_digest').toLowerCase() !== u.blob.hashes.sha256) throw new BadRequestError('hash mismatch');
  const name = normalizePypiName(field(u.fields, 'name'));
  const version = field(u.fields, 'version');
  if (!validPypiName(name) || !validPypiVersion(version)) throw new BadRequestError('invalid name or version');
  if (!validPypiFilename(u.filename)) throw new BadRequestError('invalid filename');
  return { name, version };
}

/** Adds the file to the package version (both created when missing): 409 when the file exists. */
export async function uploadPypiFile(h: Hearth, u: PypiUpload): Promise<Created> {
  let checked: { name: string; version: string };
  try {
    checked = check(u);
  } catch (err) {
    await discardPypiBlob(h, u.blob);
    throw err;
  }
  // createPackageAndAddFile drops the blob itself when its transaction fails.
  return createPackageAndAddFile(h, {
    owner: u.owner, creator: u.creator, type: PYPI, name: checked.name, version: checked.version,
    versionMetadata: pypiMetadata(u.fields), file: { name: u.filename, isLead: true }, blob: u.blob,
  });
}
