import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFileOfVersion, getFilesOfVersion, getVersion } from '../queries';
import { ownerPublicKey } from '../signing/owner-keys';
import { readApk } from './apk';
import type { Hearth } from '../../../hearth';

// Gitea's Alpine registry (services/packages/alpine): an .apk goes into a branch and a
// repository (e.g. `v3.20/main`); the file `{name}-{version}.apk` is keyed by
// `{branch}|{repository}|{arch}`. The index job rebuilds the branch/repository's APKINDEX.

export const ALPINE = 'alpine';
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const fileKey = (branch: string, repository: string, arch: string) => `${branch}|${repository}|${arch}`;

/** The name apk knows the owner's key by (the file under /etc/apk/keys, the index's .SIGN.RSA. entry). */
export async function alpineKey(h: Hearth, owner: User): Promise<{ name: string; pem: string }> {
  const { key, fingerprint } = await ownerPublicKey(h, owner, 'rsa');
  return { name: `${owner.lower_name}@hearth-${fingerprint.slice(0, 16)}.rsa.pub`, pem: key };
}

export async function uploadAlpinePackage(h: Hearth, i: { owner: User; creator: User; branch: string; repository: string; blob: StoredBlob }): Promise<void> {
  let apk;
  try {
    if (!SEGMENT.test(i.branch) || !SEGMENT.test(i.repository)) throw new BadRequestError('invalid branch or repository');
    apk = await withBlobFile(h.blobs, i.blob.hashes.sha256, readApk);
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(h.db, i.blob.hashes.sha256))) await removeBlobFile(h.blobs, i.blob.hashes.sha256);
    throw err;
  }
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: ALPINE, name: apk.name, version: apk.version, versionMetadata: apk.metadata, blob: i.blob,
    file: {
      name: `${apk.name}-${apk.version}.apk`, compositeKey: fileKey(i.branch, i.repository, apk.architecture), isLead: true,
      properties: { 'alpine.branch': i.branch, 'alpine.repository': i.repository, 'alpine.architecture': apk.architecture, 'alpine.checksum': apk.checksum },
    },
  });
}

/** `{name}-{version}.apk` of a branch, repository and architecture (noarch ones under any). */
export async function getAlpineFile(db: DB, owner: User, i: { branch: string; repository: string; architecture: string; filename: string }) {
  const m = /^(.+)-([^-]+-r[0-9]+)\.apk$/.exec(i.filename);
  if (!m) throw new NotFoundError('package file does not exist');
  const { version } = await getVersion(db, owner, ALPINE, m[1]!, m[2]!);
  try {
    return { version, ...(await getFileOfVersion(db, version, i.filename, fileKey(i.branch, i.repository, i.architecture))) };
  } catch {
    return { version, ...(await getFileOfVersion(db, version, i.filename, fileKey(i.branch, i.repository, 'noarch'))) };
  }
}

export async function deleteAlpineFile(h: Hearth, doer: User, owner: User, i: { branch: string; repository: string; architecture: string; filename: string }): Promise<void> {
  const { version, file } = await getAlpineFile(h.db, owner, i);
  if ((await getFilesOfVersion(h.db, version)).length === 1) await deleteVersion(h, doer, version);
  else await deletePackageFile(h.db, file);
}
