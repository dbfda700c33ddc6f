import fs from 'node:fs';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFileOfVersion, getFilesOfVersion, getVersion } from '../queries';
import { readArchPackage } from './pkginfo';
import type { Hearth } from '../../../hearth';

// Gitea's Arch registry (services/packages/arch): a package goes into a repository ('' or a
// path such as `core/testing`); the file `{name}-{version}-{arch}.pkg.tar.{zst,xz,gz}` is keyed by
// the repository. The index job rebuilds that repository's databases.

export const ARCH = 'arch';
const REPOSITORY = /^(?:[A-Za-z0-9][A-Za-z0-9._+-]*(?:\/[A-Za-z0-9][A-Za-z0-9._+-]*)*)?$/;
const PKG_FILE = /^(.+)-([^-]+-[^-]+)-([^-]+)\.pkg\.tar\.(zst|xz|gz)$/;

export function checkRepository(repository: string): void {
  if (!REPOSITORY.test(repository) || repository.split('/').includes('repository.key')) throw new BadRequestError('invalid repository');
}

export async function uploadArchPackage(h: Hearth, i: { owner: User; creator: User; repository: string; blob: StoredBlob }): Promise<void> {
  let read;
  try {
    checkRepository(i.repository);
    read = await withBlobFile(h.blobs, i.blob.hashes.sha256, async (f) => ({ ...(await readArchPackage(f)), compression: sniffExt(f) }));
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(h.db, i.blob.hashes.sha256))) await removeBlobFile(h.blobs, i.blob.hashes.sha256);
    throw err;
  }
  const { pkg, files, compression } = read;
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: ARCH, name: pkg.name, version: pkg.version, versionMetadata: pkg.metadata, blob: i.blob,
    file: {
      name: `${pkg.name}-${pkg.version}-${pkg.architecture}.pkg.tar.${compression}`, compositeKey: i.repository, isLead: true,
      properties: { 'arch.repository': i.repository, 'arch.architecture': pkg.architecture, 'arch.files': files.join('\n') },
    },
  });
}

function sniffExt(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(6);
    fs.readSync(fd, head, 0, 6, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return 'gz';
    if (head[0] === 0xfd && head[1] === 0x37) return 'xz';
    return 'zst';
  } finally {
    fs.closeSync(fd);
  }
}

/** A package file of a repository by its name (`{name}-{version}-{arch}.pkg.tar.*`), or NotFoundError. */
export async function getArchFile(db: DB, owner: User, repository: string, filename: string) {
  const m = PKG_FILE.exec(filename);
  if (!m) throw new NotFoundError('package file does not exist');
  const { version } = await getVersion(db, owner, ARCH, m[1]!, m[2]!);
  return { version, ...(await getFileOfVersion(db, version, filename, repository)) };
}

/** Removes a version's file of one architecture; the version goes with its last file. */
export async function deleteArchFile(h: Hearth, doer: User, owner: User, i: { repository: string; name: string; version: string; architecture: string }): Promise<void> {
  const { version } = await getVersion(h.db, owner, ARCH, i.name, i.version);
  const files = await getFilesOfVersion(h.db, version);
  const prefix = `${i.name}-${i.version}-${i.architecture}.pkg.tar.`.toLowerCase();
  const hit = files.find((f) => f.file.composite_key === i.repository && f.file.lower_name.startsWith(prefix));
  if (!hit) throw new NotFoundError('package file does not exist');
  if (files.length === 1) await deleteVersion(h, doer, version);
  else await deletePackageFile(h.db, hit.file);
}
