import type { DB } from '../db/connect';
import type { PackageBlob, PackageFile } from '../db/schema';
import { PROPERTY_REF } from './package';

// What the repository index builders read (every file of a type of one owner, with its version,
// package, blob and properties), and the rows of the built index files.

export type IndexedFile = {
  file: PackageFile;
  version: string;
  versionId: number;
  packageName: string;
  blob: PackageBlob;
  /** The file's properties; a name given twice keeps the last value. */
  props: Record<string, string>;
};

/** Files of an owner's packages of a type (internal packages aside), with a file property equal to a value when given. */
export async function indexedFiles(db: DB, ownerId: number, type: string, where?: { name: string; value: string }): Promise<IndexedFile[]> {
  let q = db.selectFrom('package_file as f').innerJoin('package_version as v', 'v.id', 'f.version_id')
    .innerJoin('package as p', 'p.id', 'v.package_id').innerJoin('package_blob as b', 'b.id', 'f.blob_id')
    .selectAll('f').select(['v.version', 'p.name as package_name', 'b.id as b_id', 'b.size', 'b.hash_md5', 'b.hash_sha1', 'b.hash_sha256', 'b.hash_sha512', 'b.created_unix as b_created'])
    .where('p.owner_id', '=', ownerId).where('p.type', '=', type).where('p.is_internal', '=', 0);
  if (where) {
    q = q.where((eb) => eb.exists(eb.selectFrom('package_property as pp').select('pp.id')
      .where('pp.ref_type', '=', PROPERTY_REF.file).whereRef('pp.ref_id', '=', 'f.id')
      .where('pp.name', '=', where.name).where('pp.value', '=', where.value)));
  }
  const rows = await q.orderBy('p.lower_name').orderBy('f.id').execute();
  const props = await filePropertyMaps(db, rows.map((r) => r.id));
  return rows.map((r) => ({
    file: { id: r.id, version_id: r.version_id, blob_id: r.blob_id, name: r.name, lower_name: r.lower_name, composite_key: r.composite_key, is_lead: r.is_lead, created_unix: r.created_unix },
    version: r.version, versionId: r.version_id, packageName: r.package_name,
    blob: { id: r.b_id, size: r.size, hash_md5: r.hash_md5, hash_sha1: r.hash_sha1, hash_sha256: r.hash_sha256, hash_sha512: r.hash_sha512, created_unix: r.b_created },
    props: props.get(r.id) ?? {},
  }));
}

/** The properties of files, by file id. */
export async function filePropertyMaps(db: DB, fileIds: number[]): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  for (let i = 0; i < fileIds.length; i += 500) {
    const rows = await db.selectFrom('package_property').select(['ref_id', 'name', 'value'])
      .where('ref_type', '=', PROPERTY_REF.file).where('ref_id', 'in', fileIds.slice(i, i + 500)).orderBy('id').execute();
    for (const r of rows) {
      const m = out.get(r.ref_id) ?? {};
      m[r.name] = r.value;
      out.set(r.ref_id, m);
    }
  }
  return out;
}

/** The index files of one scope (a version of the internal index package) with their blobs. */
export function indexFileRows(db: DB, versionId: number, compositeKey?: string) {
  let q = db.selectFrom('package_file as f').innerJoin('package_blob as b', 'b.id', 'f.blob_id')
    .select(['f.id', 'f.name', 'f.composite_key', 'f.created_unix', 'b.id as blob_id', 'b.size', 'b.hash_md5', 'b.hash_sha1', 'b.hash_sha256', 'b.hash_sha512', 'b.created_unix as blob_created'])
    .where('f.version_id', '=', versionId);
  if (compositeKey !== undefined) q = q.where('f.composite_key', '=', compositeKey);
  return q.orderBy('f.id').execute();
}

export const deleteFilesWithKey = (db: DB, versionId: number, compositeKey: string) =>
  db.deleteFrom('package_file').where('version_id', '=', versionId).where('composite_key', '=', compositeKey).execute();

export const renameFileKey = (db: DB, versionId: number, from: string, to: string) =>
  db.updateTable('package_file').set({ composite_key: to }).where('version_id', '=', versionId).where('composite_key', '=', from).execute();

/** Versions (scopes) of an owner's internal index package of a type. */
export const indexScopes = (db: DB, type: string, name: string) =>
  db.selectFrom('package_version as v').innerJoin('package as p', 'p.id', 'v.package_id')
    .select(['p.owner_id', 'v.version']).where('p.type', '=', type).where('p.lower_name', '=', name.toLowerCase()).where('p.is_internal', '=', 1).execute();

/** The parsed metadata_json of versions by id ({} when empty or broken). */
export async function versionMetadataByIds(db: DB, ids: number[]): Promise<Map<number, unknown>> {
  const out = new Map<number, unknown>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('package_version').select(['id', 'metadata_json']).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) { try { out.set(r.id, r.metadata_json ? JSON.parse(r.metadata_json) : {}); } catch { out.set(r.id, {}); } }
  }
  return out;
}

/** Owners having packages of a type (internal packages aside). */
export async function ownersWithType(db: DB, type: string): Promise<number[]> {
  const rows = await db.selectFrom('package').select('owner_id').distinct().where('type', '=', type).where('is_internal', '=', 0).execute();
  return rows.map((r) => r.owner_id);
}
