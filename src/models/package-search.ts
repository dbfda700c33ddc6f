import { sql, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import { likeContaining } from '../lib/like';
import type { PackageProperty } from '../db/schema';
import type { PropertyRef } from './package';

// Package properties and searches (the REST list, registry searches), and upload sessions.

export const propertiesOf = (db: DB, refType: PropertyRef, refId: number, name?: string): Promise<PackageProperty[]> => {
  let q = db.selectFrom('package_property').selectAll().where('ref_type', '=', refType).where('ref_id', '=', refId);
  if (name !== undefined) q = q.where('name', '=', name);
  return q.orderBy('id').execute();
};

export const insertProperty = (db: DB, refType: PropertyRef, refId: number, name: string, value: string) =>
  db.insertInto('package_property').values({ ref_type: refType, ref_id: refId, name, value }).execute();

export const deleteProperties = (db: DB, refType: PropertyRef, refIds: number[], name?: string) => {
  if (!refIds.length) return Promise.resolve();
  let q = db.deleteFrom('package_property').where('ref_type', '=', refType).where('ref_id', 'in', refIds);
  if (name !== undefined) q = q.where('name', '=', name);
  return q.execute();
};

export type VersionSearch = {
  ownerId: number;
  type?: string;
  /** Substring of the package name (case-insensitive). */
  query?: string;
  /** Exact package name. */
  name?: string;
  packageId?: number;
  /** Versions whose property `name` has `value`. */
  property?: { name: string; value: string };
  isInternal?: boolean;
  offset: number;
  limit: number;
};

/** Versions (with their package) matching a search, newest first, and how many in all. */
export async function searchVersions(db: DB, s: VersionSearch) {
  let q = db.selectFrom('package_version as v').innerJoin('package as p', 'p.id', 'v.package_id')
    .where('p.owner_id', '=', s.ownerId).where('v.is_internal', '=', s.isInternal ? 1 : 0);
  if (s.type) q = q.where('p.type', '=', s.type);
  if (s.query) q = q.where(sql<SqlBool>`p.lower_name LIKE ${likeContaining(s.query.toLowerCase())} ESCAPE '\\'`);
  if (s.name !== undefined) q = q.where('p.lower_name', '=', s.name.toLowerCase());
  if (s.packageId !== undefined) q = q.where('p.id', '=', s.packageId);
  if (s.property) {
    const { name, value } = s.property;
    q = q.where((eb) => eb.exists(eb.selectFrom('package_property as pp').select('pp.id')
      .where('pp.ref_type', '=', 0).whereRef('pp.ref_id', '=', 'v.id').where('pp.name', '=', name).where('pp.value', '=', value)));
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll('v').select(['p.owner_id', 'p.repo_id', 'p.type', 'p.name', 'p.lower_name', 'p.semver_compatible'])
    .orderBy('v.created_unix', 'desc').orderBy('v.id', 'desc').limit(s.limit).offset(s.offset).execute();
  return { rows, total: Number(total.n) };
}

export const findUpload = (db: DB, id: string) =>
  db.selectFrom('package_blob_upload').selectAll().where('id', '=', id).executeTakeFirst();

export const insertUpload = (db: DB, id: string, storeState: string, nowUnix: number) =>
  db.insertInto('package_blob_upload').values({ id, store_state: storeState, created_unix: nowUnix, updated_unix: nowUnix }).execute();

/** Moves a session on from `fromBytes` (only if no other chunk did meanwhile): whether it did. */
export async function setUploadReceived(db: DB, id: string, fromBytes: number, bytes: number, storeState: string, nowUnix: number): Promise<boolean> {
  const r = await db.updateTable('package_blob_upload').set({ bytes_received: bytes, store_state: storeState, updated_unix: nowUnix })
    .where('id', '=', id).where('bytes_received', '=', fromBytes).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const setUploadState = (db: DB, id: string, storeState: string) =>
  db.updateTable('package_blob_upload').set({ store_state: storeState }).where('id', '=', id).execute();

export const deleteUploadRow = (db: DB, id: string) => db.deleteFrom('package_blob_upload').where('id', '=', id).execute();

export const staleUploads = (db: DB, beforeUnix: number) =>
  db.selectFrom('package_blob_upload').select(['id', 'store_state']).where('updated_unix', '<', beforeUnix).execute();
