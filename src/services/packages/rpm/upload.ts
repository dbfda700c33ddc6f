import type { Config } from '../../../config/schema';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { blobPath, removeBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFilesOfVersion, getVersion, getProperties } from '../queries';
import { PROPERTY_REF } from '../../../models/package';
import { readRpm } from './metadata';

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

export async function uploadRpmPackage(db: DB, config: Config, i: { owner: User; creator: User; group: string; blob: StoredBlob }): Promise<void> {
  let rpm;
  try {
    checkGroup(i.group);
    rpm = readRpm(blobPath(config.server.data_dir, i.blob.hashes.sha256), Math.floor(Date.now() / 1000));
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(db, i.blob.hashes.sha256))) removeBlobFile(config.server.data_dir, i.blob.hashes.sha256);
    throw err;
  }
  const arch = rpm.fileMetadata.architecture;
  await createPackageAndAddFile(db, config, {
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

export async function deleteRpmFile(db: DB, config: Config, doer: User, owner: User, group: string, name: string, version: string, arch: string): Promise<void> {
  const { version: v, file } = await getRpmFile(db, owner, group, name, version, arch);
  if ((await getFilesOfVersion(db, v)).length === 1) await deleteVersion(db, config, doer, v);
  else await deletePackageFile(db, file);
}
