import type { DB } from '../../db/connect';
import type { Package, PackageBlob, PackageFile, PackageVersion, User } from '../../db/schema';
import { ConflictError, NotFoundError } from '../../lib/errors';
import * as m from '../../models/package';
import { deleteProperties, insertProperty } from '../../models/package-search';
import { blobBySha256 } from '../../models/package';
import { removeBlobFile, type StoredBlob } from './blob-store';
import { checkCountQuota, checkSizeQuota } from './limits';
import { notifyPackage } from './notify';
import { queueIndexRebuildsOfFiles } from './repo-index/jobs';
import { type Hearth, withDb } from '../../hearth';

// Creating and deleting package versions and files (Gitea's services/packages/packages.go).

const REF = m.PROPERTY_REF;
export type Properties = Record<string, string | string[]>;

export type FileInput = {
  name: string;
  /** Tells apart files of one name in one version (e.g. a maven classifier); '' by default. */
  compositeKey?: string;
  isLead: boolean;
  properties?: Properties;
};

export type CreateInput = {
  owner: User;
  creator: User;
  type: string;
  name: string;
  version: string;
  semverCompatible?: boolean;
  isInternal?: boolean;
  /** Only the version is internal (the container registry's `_upload` version), not the package. */
  versionIsInternal?: boolean;
  /** Stored as the version's metadata_json (JSON.stringify'd); kept as is when the version exists. */
  versionMetadata?: unknown;
  versionProperties?: Properties;
  packageProperties?: Properties;
  file: FileInput;
  /** From storeBlob or finishUploadSession; its row is added here (one per sha256). */
  blob: StoredBlob;
  /** Replace a file of the same name (and composite key) instead of 409. */
  overwrite?: boolean;
  /** 409 when the version exists already (npm, pypi publish a version once). */
  failIfVersionExists?: boolean;
};
export type Created = { pkg: Package; version: PackageVersion; file: PackageFile; versionCreated: boolean };

async function addProperties(db: DB, refType: m.PropertyRef, refId: number, props: Properties | undefined): Promise<void> {
  for (const [name, value] of Object.entries(props ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) await insertProperty(db, refType, refId, name, v);
  }
}

async function ensurePackage(db: DB, i: CreateInput): Promise<Package> {
  const found = await m.findPackage(db, i.owner.id, i.type, i.name);
  if (found) return found;
  const pkg = await m.insertPackage(db, { ownerId: i.owner.id, type: i.type, name: i.name, semverCompatible: !!i.semverCompatible, isInternal: i.isInternal });
  await addProperties(db, REF.package, pkg.id, i.packageProperties);
  return pkg;
}

async function ensureVersion(h: Hearth, pkg: Package, i: CreateInput): Promise<{ version: PackageVersion; created: boolean }> {
  const found = await m.findVersion(h.db, pkg.id, i.version);
  if (found) {
    if (i.failIfVersionExists) throw new ConflictError('package version already exists');
    return { version: found, created: false };
  }
  await checkCountQuota(h, i.creator, i.owner);
  const metadataJson = i.versionMetadata === undefined ? '' : JSON.stringify(i.versionMetadata);
  const version = await m.insertVersion(h.db, { packageId: pkg.id, creatorId: i.creator.id, version: i.version, metadataJson, isInternal: i.isInternal || i.versionIsInternal });
  await addProperties(h.db, REF.version, version.id, i.versionProperties);
  return { version, created: true };
}

/** What addFile adds, and for whom (the quotas are the creator's and the owner's). */
type FileAdd = { owner: User; creator: User; file: FileInput; blob: StoredBlob; overwrite?: boolean };

/** Adds the file row (and the blob row) to a version: 409 when the file exists, unless overwrite. */
async function addFile(h: Hearth, pkg: Package, version: PackageVersion, { owner, creator, file: f, blob, overwrite }: FileAdd): Promise<PackageFile> {
  const existing = await m.findFile(h.db, version.id, f.name, f.compositeKey ?? '');
  if (existing && !overwrite) throw new ConflictError('package file already exists');
  await checkSizeQuota(h, creator, owner, pkg.type, blob.size);
  if (existing) {
    await deleteProperties(h.db, REF.file, [existing.id]);
    await m.deleteFileRow(h.db, existing.id);
  }
  const row = await m.ensureBlob(h.db, { size: blob.size, ...blob.hashes });
  const file = await m.insertFile(h.db, { versionId: version.id, blobId: row.id, name: f.name, compositeKey: f.compositeKey ?? '', isLead: f.isLead });
  await addProperties(h.db, REF.file, file.id, f.properties);
  return file;
}

/**
 * A stored blob whose rows did not commit: its file goes unless a row (another upload of the
 * same bytes) references it. A blob row left without files is cleanup_packages' work.
 */
async function dropOrphanBlob(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
}

/**
 * Gitea's CreatePackageOrAddFileToExisting: one transaction creates the package and version when
 * missing and adds the file; the `package` webhook event (created) fires when the version is new.
 */
export async function createPackageAndAddFile(h: Hearth, i: CreateInput): Promise<Created> {
  let out: Created;
  try {
    out = await h.db.transaction().execute(async (trx) => {
      const pkg = await ensurePackage(trx, i);
      const { version, created } = await ensureVersion(withDb(h, trx), pkg, i);
      const file = await addFile(withDb(h, trx), pkg, version, i);
      await queueIndexRebuildsOfFiles(trx, pkg, [file.id]);
      return { pkg, version, file, versionCreated: created };
    });
  } catch (err) {
    await dropOrphanBlob(h, i.blob);
    throw err;
  }
  if (out.versionCreated) await notifyPackage(h, 'created', i.creator, out.pkg, out.version);
  return out;
}

/** Adds a file to a version that exists (404 otherwise); 409 when the file exists, unless overwrite. */
export async function addFileToExistingVersion(h: Hearth, i: {
  owner: User; creator: User; type: string; name: string; version: string; file: FileInput; blob: StoredBlob; overwrite?: boolean;
}): Promise<{ pkg: Package; version: PackageVersion; file: PackageFile }> {
  try {
    return await h.db.transaction().execute(async (trx) => {
      const pkg = await m.findPackage(trx, i.owner.id, i.type, i.name);
      const version = pkg && (await m.findVersion(trx, pkg.id, i.version));
      if (!pkg || !version) throw new NotFoundError('package does not exist');
      const file = await addFile(withDb(h, trx), pkg, version, i);
      await queueIndexRebuildsOfFiles(trx, pkg, [file.id]);
      return { pkg, version, file };
    });
  } catch (err) {
    await dropOrphanBlob(h, i.blob);
    throw err;
  }
}

/**
 * Deletes a version, its files and properties, and the package with its last version; emits the
 * `package` event (deleted). Blobs stay for cleanup_packages (another version may share them).
 */
export async function deleteVersion(h: Hearth, doer: User, version: PackageVersion): Promise<void> {
  const pkg = await m.packageById(h.db, version.package_id);
  await h.db.transaction().execute(async (trx) => {
    const files = await m.filesOf(trx, version.id);
    if (pkg) await queueIndexRebuildsOfFiles(trx, pkg, files.map((f) => f.id));
    await deleteProperties(trx, REF.file, files.map((f) => f.id));
    await deleteProperties(trx, REF.version, [version.id]);
    await m.deleteVersionRow(trx, version.id);
    if (pkg && !(await m.anyVersionOf(trx, pkg.id))) {
      await deleteProperties(trx, REF.package, [pkg.id]);
      await m.deletePackageRow(trx, pkg.id);
    }
  });
  if (pkg) await notifyPackage(h, 'deleted', doer, pkg, version);
}

/** Deletes one file (and its properties); the version stays even when it was its last file. */
export async function deletePackageFile(db: DB, file: PackageFile): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const version = await m.versionById(trx, file.version_id);
    const pkg = version && (await m.packageById(trx, version.package_id));
    if (pkg) await queueIndexRebuildsOfFiles(trx, pkg, [file.id]);
    await deleteProperties(trx, REF.file, [file.id]);
    await m.deleteFileRow(trx, file.id);
  });
}

export type { PackageBlob };
