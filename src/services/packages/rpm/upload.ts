import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFilesOfVersion, getVersion, getProperties } from '../queries';
import { PROPERTY_REF } from '../../../models/package';
import { readRpm } from './metadata';
import type { Hearth } from '../../../hearth';

// Gitea's RPM registry (services/packages/rpm): an rpm goes into a group ('' by default, or a
// path such as `el9/stable`); the version is `{version}-{release}`, the file
// `{name}-{version}-{release}.{arch}.rpm` keyed by the group. The index job rebuilds the group.

export const RPM = 'rpm';
const GROUP = /^(?:[A-Za-z0-9][A-Za-z0-9._+-]*(?:\/[A-Za-z0-9][A-Za-z0-9._+-]*)*)?$/;
const RESERVED = new Set(['repodata', 'package', 'upload', 'repository.key']);

/** A group: '' or slash-separated plain segments, none a name the routes use (400 otherwise). */
export function checkGroup(group: string): void {
  if (!GROUP.test(group) || group.split('/').some((s) => RESERVED.has(s))) throw new BadRequestError('invalid group');
}

export async function uploadRpmPackage(h: Hearth, i: { owner: User; creator: User; group: string; blob: StoredBlob }): Promise<void> {
  let rpm;
  try {
    checkGroup(i.group);
    rpm = await withBlobFile(h.blobs, i.blob.hashes.sha256, (f) => readRpm(f, Math.floor(Date.now() / 1000)));
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(h.db, i.blob.hashes.sha256))) await removeBlobFile(h.blobs, i.blob.hashes.sha256);
    throw err;
  }
  const arch = rpm.fileMetadata.architecture;
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: RPM, name: rpm.name, version: rpm.version, versionMetadata: rpm.versionMetadata, blob: i.blob,
    file: {
      name: `${rpm.name}-${rpm.version}.${arch}.rpm`, compositeKey: i.group, isLead: true,
      properties: { 'rpm.group': i.group, 'rpm.architecture': arch, 'rpm.metadata': JSON.stringify(rpm.fileMetadata) },
    },
  });
}

/** The file of a version for an architecture in a group, or NotFoundError. */
export async function getRpmFile(db: DB, owner: User, group: string, name: string, version: string, arch: string) {
  const v = await getVersion(db, owner, RPM, name, version);
  for (const f of await getFilesOfVersion(db, v.version)) {
    if (f.file.composite_key !== group) continue;
    const props = await getProperties(db, PROPERTY_REF.file, f.file.id, 'rpm.architecture');
    if (props[0]?.value === arch) return { version: v.version, ...f };
  }
  throw new NotFoundError('package file does not exist');
}

export async function deleteRpmFile(h: Hearth, doer: User, owner: User, group: string, name: string, version: string, arch: string): Promise<void> {
  const { version: v, file } = await getRpmFile(h.db, owner, group, name, version, arch);
  if ((await getFilesOfVersion(h.db, v)).length === 1) await deleteVersion(h, doer, v);
  else await deletePackageFile(h.db, file);
}
