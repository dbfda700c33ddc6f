import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { blobBySha256 } from '../../../models/package';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFileOfVersion, getFilesOfVersion, getVersion } from '../queries';
import { readDebControl } from './control';
import type { Hearth } from '../../../hearth';

// Gitea's Debian registry (services/packages/debian): a .deb goes into a distribution and a
// component; its file is `{name}_{version}_{arch}.deb` keyed by `{distribution}|{component}`,
// so one version may sit in several distributions. The index job rebuilds the distribution.

export const DEBIAN = 'debian';
export const debFileName = (name: string, version: string, arch: string) => `${name}_${version}_${arch}.deb`;
export const debFileKey = (distribution: string, component: string) => `${distribution}|${component}`;

/** A distribution or component name: one path segment of plain characters (400 otherwise). */
export function checkDistComponent(distribution: string, component: string): void {
  const ok = (s: string) => /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/.test(s);
  if (!ok(distribution) || !ok(component)) throw new BadRequestError('invalid distribution or component');
}

/** Dropped when the upload is refused before its rows exist (the bytes may be another's). */
async function discard(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
}

export async function uploadDebianPackage(h: Hearth, i: { owner: User; creator: User; distribution: string; component: string; blob: StoredBlob }): Promise<void> {
  let control;
  try {
    checkDistComponent(i.distribution, i.component);
    control = await withBlobFile(h.blobs, i.blob.hashes.sha256, readDebControl);
  } catch (err) {
    await discard(h, i.blob);
    throw err;
  }
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: DEBIAN, name: control.name, version: control.version,
    versionMetadata: control.metadata, blob: i.blob,
    file: {
      name: debFileName(control.name, control.version, control.architecture), compositeKey: debFileKey(i.distribution, i.component), isLead: true,
      properties: { 'debian.distribution': i.distribution, 'debian.component': i.component, 'debian.architecture': control.architecture, 'debian.control': control.control },
    },
  });
}

/** A .deb of the pool: `{name}_{version}_{arch}.deb` of a distribution and component. */
export async function getDebianFile(db: DB, owner: User, distribution: string, component: string, filename: string) {
  const m = /^([^_]+)_([^_]+)_([^_.]+)\.deb$/.exec(filename);
  if (!m) throw new NotFoundError('package file does not exist');
  const { version } = await getVersion(db, owner, DEBIAN, m[1]!, m[2]!);
  return { version, ...(await getFileOfVersion(db, version, filename, debFileKey(distribution, component))) };
}

/** Removes one architecture's file; the version goes with its last file (Gitea's DeletePackageFile). */
export async function deleteDebianFile(h: Hearth, doer: User, owner: User, i: { distribution: string; component: string; name: string; version: string; architecture: string }): Promise<void> {
  const { version } = await getVersion(h.db, owner, DEBIAN, i.name, i.version);
  const { file } = await getFileOfVersion(h.db, version, debFileName(i.name, i.version, i.architecture), debFileKey(i.distribution, i.component));
  if ((await getFilesOfVersion(h.db, version)).length === 1) await deleteVersion(h, doer, version);
  else await deletePackageFile(h.db, file);
}
