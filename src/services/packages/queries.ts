
import type { DB } from '../../db/connect';
import type { Package, PackageBlob, PackageFile, PackageVersion, User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import * as m from '../../models/package';
import { propertiesOf, insertProperty, deleteProperties, searchVersions, type VersionSearch } from '../../models/package-search';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import type { PackageView } from '../../convert/package';
import { accessMode, ACCESS } from '../permissions';

// Reading packages, versions, files and properties (registries and the REST API).

/** The package of an owner by type and name (case-insensitive), or NotFoundError. */
export async function getPackage(db: DB, owner: User, type: string, name: string): Promise<Package> {
  const pkg = await m.findPackage(db, owner.id, type, name);
  // Internal packages (the built repository indexes) are the registry's, never the owner's to read or delete.
  if (!pkg || pkg.is_internal) throw new NotFoundError('package does not exist');
  return pkg;
}

/** A version of an owner's package (case-insensitive), or NotFoundError. */
export async function getVersion(db: DB, owner: User, type: string, name: string, version: string): Promise<{ pkg: Package; version: PackageVersion }> {
  const pkg = await getPackage(db, owner, type, name);
  const v = await m.findVersion(db, pkg.id, version);
  if (!v) throw new NotFoundError('package does not exist');
  return { pkg, version: v };
}

/** The non-internal versions of a package, newest first; paged when `page` is given. */
export async function getVersionsOfPackage(db: DB, pkg: Package, page?: { offset: number; limit: number }): Promise<{ versions: PackageVersion[]; total: number }> {
  return { versions: await m.versionsOf(db, pkg.id, page), total: await m.countVersionsOf(db, pkg.id) };
}

export type FileWithBlob = { file: PackageFile; blob: PackageBlob };

/** The files of a version with their blobs, in upload order. */
export async function getFilesOfVersion(db: DB, version: PackageVersion): Promise<FileWithBlob[]> {
  const files = await m.filesOf(db, version.id);
  const blobs = new Map((await m.blobsByIds(db, [...new Set(files.map((f) => f.blob_id))])).map((b) => [b.id, b]));
  return files.flatMap((file) => { const blob = blobs.get(file.blob_id); return blob ? [{ file, blob }] : []; });
}

/** One file of a version by name (case-insensitive) and composite key, or NotFoundError. */
export async function getFileOfVersion(db: DB, version: PackageVersion, name: string, compositeKey = ''): Promise<FileWithBlob> {
  const file = await m.findFile(db, version.id, name, compositeKey);
  const blob = file && (await m.blobById(db, file.blob_id));
  if (!file || !blob) throw new NotFoundError('package file does not exist');
  return { file, blob };
}

/** Counts a download of a version (Gitea counts downloads of lead files only: the caller decides). */
export const incrementDownloadCount = (db: DB, version: PackageVersion) => m.incrementDownloads(db, version.id);

/** Properties of a version (0), file (1) or package (2), optionally of one name, as {name, value} rows. */
export const getProperties = (db: DB, refType: m.PropertyRef, refId: number, name?: string) => propertiesOf(db, refType, refId, name);

/** Sets a property to one value (replacing every value of that name). */
export async function setProperty(db: DB, refType: m.PropertyRef, refId: number, name: string, value: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteProperties(trx, refType, [refId], name);
    await insertProperty(trx, refType, refId, name, value);
  });
}

/**
 * Versions of an owner's packages matching a search (type, name substring `query`, exact `name`,
 * a version property), newest first, with their package columns, and the total.
 */
export const searchPackages = (db: DB, s: VersionSearch) => searchVersions(db, s);

/** What the converter needs for one version: owner, creator and the linked repository if `viewer` may read it. */
/**
 * What a listing of many versions looked up already: their creators (a missing id is a deleted
 * user) and the linked repositories as the viewer sees them, so each is read once per listing.
 */
export type ViewLookups = { creators?: ReadonlyMap<number, User>; repos?: Map<number, Promise<PackageView['repo']>> };

async function linkedRepo(db: DB, repoId: number, owner: User, viewer: User | null): Promise<PackageView['repo']> {
  const row = await getRepoById(db, repoId);
  if (!row) return null;
  const repoOwner = row.owner_id === owner.id ? owner : await getUserById(db, row.owner_id);
  const mode = repoOwner ? await accessMode(db, viewer, row, repoOwner) : ACCESS.none;
  return repoOwner && mode >= ACCESS.read ? { repo: row, owner: repoOwner, mode } : null;
}

export async function packageView(
  db: DB, pkg: Package, version: PackageVersion, owner: User, viewer: User | null, lookups: ViewLookups = {},
): Promise<PackageView> {
  const id = version.creator_id;
  const creator = !id ? null : lookups.creators ? lookups.creators.get(id) ?? null : (await getUserById(db, id)) ?? null;
  let repo: PackageView['repo'] = null;
  if (pkg.repo_id) {
    let found = lookups.repos?.get(pkg.repo_id);
    if (!found) {
      found = linkedRepo(db, pkg.repo_id, owner, viewer);
      lookups.repos?.set(pkg.repo_id, found);
    }
    repo = await found;
  }
  return { pkg, version, owner, creator, repo };
}

