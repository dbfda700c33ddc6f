import { sql } from 'kysely';
import type { DB } from '../db/connect';
import type { Package, PackageBlob, PackageFile, PackageVersion } from '../db/schema';

// Queries of the package tables (migration 0023); the rules live in src/services/packages.

export const PROPERTY_REF = { version: 0, file: 1, package: 2 } as const;
export type PropertyRef = (typeof PROPERTY_REF)[keyof typeof PROPERTY_REF];
const now = () => Math.floor(Date.now() / 1000);

export const findPackage = (db: DB, ownerId: number, type: string, name: string): Promise<Package | undefined> =>
  db.selectFrom('package').selectAll().where('owner_id', '=', ownerId).where('type', '=', type)
    .where('lower_name', '=', name.toLowerCase()).executeTakeFirst();

export const packageById = (db: DB, id: number): Promise<Package | undefined> =>
  db.selectFrom('package').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertPackage(db: DB, p: { ownerId: number; type: string; name: string; semverCompatible: boolean; isInternal?: boolean }): Promise<Package> {
  return db.insertInto('package').values({
    owner_id: p.ownerId, type: p.type, name: p.name, lower_name: p.name.toLowerCase(),
    semver_compatible: p.semverCompatible ? 1 : 0, is_internal: p.isInternal ? 1 : 0,
  }).returningAll().executeTakeFirstOrThrow();
}

export const setPackageRepo = (db: DB, packageId: number, repoId: number) =>
  db.updateTable('package').set({ repo_id: repoId }).where('id', '=', packageId).execute();

export const deletePackageRow = (db: DB, id: number) => db.deleteFrom('package').where('id', '=', id).execute();

export const findVersion = (db: DB, packageId: number, version: string): Promise<PackageVersion | undefined> =>
  db.selectFrom('package_version').selectAll().where('package_id', '=', packageId)
    .where('lower_version', '=', version.toLowerCase()).executeTakeFirst();

export const versionById = (db: DB, id: number): Promise<PackageVersion | undefined> =>
  db.selectFrom('package_version').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertVersion(db: DB, v: { packageId: number; creatorId: number; version: string; metadataJson: string; isInternal?: boolean }): Promise<PackageVersion> {
  return db.insertInto('package_version').values({
    package_id: v.packageId, creator_id: v.creatorId, version: v.version, lower_version: v.version.toLowerCase(),
    created_unix: now(), metadata_json: v.metadataJson, is_internal: v.isInternal ? 1 : 0,
  }).returningAll().executeTakeFirstOrThrow();
}

export const setVersionMetadata = (db: DB, id: number, metadataJson: string) =>
  db.updateTable('package_version').set({ metadata_json: metadataJson }).where('id', '=', id).execute();

export const deleteVersionRow = (db: DB, id: number) => db.deleteFrom('package_version').where('id', '=', id).execute();

export const incrementDownloads = (db: DB, versionId: number) =>
  db.updateTable('package_version').set({ download_count: sql`download_count + 1` }).where('id', '=', versionId).execute();

/** Versions of a package, newest first (Gitea's order), internal ones left out unless asked. */
export function versionsOf(db: DB, packageId: number, page?: { offset: number; limit: number }) {
  let q = db.selectFrom('package_version').selectAll().where('package_id', '=', packageId).where('is_internal', '=', 0)
    .orderBy('created_unix', 'desc').orderBy('id', 'desc');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q.execute();
}

export async function countVersionsOf(db: DB, packageId: number): Promise<number> {
  const row = await db.selectFrom('package_version').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('package_id', '=', packageId).where('is_internal', '=', 0).executeTakeFirstOrThrow();
  return Number(row.n);
}

export const anyVersionOf = (db: DB, packageId: number) =>
  db.selectFrom('package_version').select('id').where('package_id', '=', packageId).executeTakeFirst();

export const filesOf = (db: DB, versionId: number): Promise<PackageFile[]> =>
  db.selectFrom('package_file').selectAll().where('version_id', '=', versionId).orderBy('id').execute();

export const findFile = (db: DB, versionId: number, name: string, compositeKey = ''): Promise<PackageFile | undefined> =>
  db.selectFrom('package_file').selectAll().where('version_id', '=', versionId)
    .where('lower_name', '=', name.toLowerCase()).where('composite_key', '=', compositeKey).executeTakeFirst();

export async function insertFile(db: DB, f: { versionId: number; blobId: number; name: string; compositeKey: string; isLead: boolean }): Promise<PackageFile> {
  return db.insertInto('package_file').values({
    version_id: f.versionId, blob_id: f.blobId, name: f.name, lower_name: f.name.toLowerCase(),
    composite_key: f.compositeKey, is_lead: f.isLead ? 1 : 0, created_unix: now(),
  }).returningAll().executeTakeFirstOrThrow();
}

export const deleteFileRow = (db: DB, id: number) => db.deleteFrom('package_file').where('id', '=', id).execute();

export const blobById = (db: DB, id: number): Promise<PackageBlob | undefined> =>
  db.selectFrom('package_blob').selectAll().where('id', '=', id).executeTakeFirst();

export const blobsByIds = (db: DB, ids: number[]): Promise<PackageBlob[]> =>
  ids.length ? db.selectFrom('package_blob').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]);

export const blobBySha256 = (db: DB, sha256: string): Promise<PackageBlob | undefined> =>
  db.selectFrom('package_blob').selectAll().where('hash_sha256', '=', sha256).executeTakeFirst();

/** The blob row of these hashes, inserted when missing (one row per sha256). */
export async function ensureBlob(db: DB, b: { size: number; md5: string; sha1: string; sha256: string; sha512: string }): Promise<PackageBlob> {
  const found = await blobBySha256(db, b.sha256);
  if (found) return found;
  return db.insertInto('package_blob').values({
    size: b.size, hash_md5: b.md5, hash_sha1: b.sha1, hash_sha256: b.sha256, hash_sha512: b.sha512, created_unix: now(),
  }).returningAll().executeTakeFirstOrThrow();
}

/** Blobs no file references, created before `beforeUnix` (a younger one may be mid-upload). */
export const unreferencedBlobs = (db: DB, beforeUnix: number): Promise<PackageBlob[]> =>
  db.selectFrom('package_blob').selectAll().where('created_unix', '<', beforeUnix)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('package_file').select('id').whereRef('package_file.blob_id', '=', 'package_blob.id'))))
    .execute();

export const isBlobReferenced = async (db: DB, blobId: number): Promise<boolean> =>
  !!(await db.selectFrom('package_file').select('id').where('blob_id', '=', blobId).executeTakeFirst());

export const deleteBlobRow = (db: DB, id: number) => db.deleteFrom('package_blob').where('id', '=', id).execute();

/** What one owner stores: its non-internal versions and the bytes of their files. */
export async function ownerUsage(db: DB, ownerId: number): Promise<{ versions: number; bytes: number }> {
  const v = await db.selectFrom('package_version as v').innerJoin('package as p', 'p.id', 'v.package_id')
    .select((eb) => eb.fn.countAll<number>().as('n')).where('p.owner_id', '=', ownerId).where('v.is_internal', '=', 0)
    .executeTakeFirstOrThrow();
  const b = await db.selectFrom('package_file as f').innerJoin('package_version as v', 'v.id', 'f.version_id')
    .innerJoin('package as p', 'p.id', 'v.package_id').innerJoin('package_blob as b', 'b.id', 'f.blob_id')
    // Internal packages (the built repository indexes) are the registry's, not the owner's, bytes.
    .select((eb) => eb.fn.sum<number>('b.size').as('s')).where('p.owner_id', '=', ownerId).where('p.is_internal', '=', 0).executeTakeFirstOrThrow();
  return { versions: Number(v.n), bytes: Number(b.s ?? 0) };
}
