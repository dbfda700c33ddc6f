import { sql } from 'kysely';
import type { DB } from '../db/connect';
import type { LfsLock, LfsMetaObject, Repository } from '../db/schema';

// LFS meta objects (an object of the blob store tied to a repository) and locks.

export const metaObject = (db: DB, repoId: number, oid: string): Promise<LfsMetaObject | undefined> =>
  db.selectFrom('lfs_meta_object').selectAll().where('repository_id', '=', repoId).where('oid', '=', oid).executeTakeFirst();

/** The meta objects of a repository among `oids`. */
export async function metaObjectsIn(db: DB, repoId: number, oids: string[]): Promise<LfsMetaObject[]> {
  if (!oids.length) return [];
  return db.selectFrom('lfs_meta_object').selectAll().where('repository_id', '=', repoId).where('oid', 'in', oids).execute();
}

/** Adds (or touches) the row tying `oid` to the repository. */
export async function upsertMetaObject(db: DB, repoId: number, oid: string, size: number, now: number): Promise<void> {
  await db.insertInto('lfs_meta_object')
    .values({ oid, size, repository_id: repoId, created_unix: now, updated_unix: now })
    .onConflict((oc) => oc.columns(['repository_id', 'oid']).doUpdateSet({ updated_unix: now }))
    .execute();
}

/** A fork holds its parent's objects (Gitea's CopyLFS): the same bytes, rows of its own. */
export async function copyMetaObjects(db: DB, fromRepoId: number, toRepoId: number, now: number): Promise<void> {
  await sql`INSERT INTO lfs_meta_object (oid, size, repository_id, created_unix, updated_unix)
    SELECT oid, size, ${toRepoId}, ${now}, ${now} FROM lfs_meta_object WHERE repository_id = ${fromRepoId}`.execute(db);
}

export async function deleteMetaObject(db: DB, repoId: number, oid: string): Promise<void> {
  await db.deleteFrom('lfs_meta_object').where('repository_id', '=', repoId).where('oid', '=', oid).execute();
}

/** Whether any repository, or a package blob, still uses the object's bytes. */
export async function oidInUse(db: DB, oid: string): Promise<boolean> {
  const meta = await db.selectFrom('lfs_meta_object').select('id').where('oid', '=', oid).executeTakeFirst();
  if (meta) return true;
  const blob = await db.selectFrom('package_blob').select('id').where('hash_sha256', '=', oid).executeTakeFirst();
  return !!blob;
}

/** Repositories having meta objects created before `beforeUnix` and untouched since `touchedBeforeUnix`. */
export async function reposWithOldMeta(db: DB, beforeUnix: number, touchedBeforeUnix: number): Promise<number[]> {
  const rows = await db.selectFrom('lfs_meta_object').select('repository_id').distinct()
    .where('created_unix', '<', beforeUnix).where('updated_unix', '<', touchedBeforeUnix).execute();
  return rows.map((r) => r.repository_id);
}

export const oldMetaOf = (db: DB, repoId: number, beforeUnix: number, touchedBeforeUnix: number, limit: number): Promise<LfsMetaObject[]> =>
  db.selectFrom('lfs_meta_object').selectAll().where('repository_id', '=', repoId)
    .where('created_unix', '<', beforeUnix).where('updated_unix', '<', touchedBeforeUnix)
    .orderBy('updated_unix').orderBy('id').limit(limit).execute();

export async function touchMetaObjects(db: DB, ids: number[], now: number): Promise<void> {
  if (ids.length) await db.updateTable('lfs_meta_object').set({ updated_unix: now }).where('id', 'in', ids).execute();
}

/** How many meta objects a repository has (counting stops at `atMost` when given). */
export async function countMetaOf(db: DB, repoId: number, atMost?: number): Promise<number> {
  if (atMost !== undefined) {
    const rows = await db.selectFrom('lfs_meta_object').select('id').where('repository_id', '=', repoId).limit(atMost).execute();
    return rows.length;
  }
  const row = await db.selectFrom('lfs_meta_object').select((eb) => eb.fn.countAll<number>().as('n')).where('repository_id', '=', repoId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The oids a repository's meta objects hold, for deleting its files after the row goes. */
export async function oidsOfRepo(db: DB, repoId: number): Promise<string[]> {
  const rows = await db.selectFrom('lfs_meta_object').select('oid').where('repository_id', '=', repoId).execute();
  return rows.map((r) => r.oid);
}

// Locks

export const lockById = (db: DB, id: number): Promise<LfsLock | undefined> =>
  db.selectFrom('lfs_lock').selectAll().where('id', '=', id).executeTakeFirst();

export const lockByPath = (db: DB, repoId: number, lowerPath: string): Promise<LfsLock | undefined> =>
  db.selectFrom('lfs_lock').selectAll().where('repo_id', '=', repoId).where('lower_path', '=', lowerPath).executeTakeFirst();

export async function insertLock(db: DB, l: { repoId: number; ownerId: number; path: string; now: number }): Promise<LfsLock> {
  return db.insertInto('lfs_lock').values({
    repo_id: l.repoId, owner_id: l.ownerId, path: l.path, lower_path: l.path.toLowerCase(), created_unix: l.now,
  }).returningAll().executeTakeFirstOrThrow();
}

/** A page of a repository's locks, oldest first; limit 0: all from `offset`. */
export function locksOf(db: DB, repoId: number, offset: number, limit: number): Promise<LfsLock[]> {
  let q = db.selectFrom('lfs_lock').selectAll().where('repo_id', '=', repoId).orderBy('id');
  if (limit > 0) q = q.limit(limit).offset(offset);
  return q.execute();
}

export const deleteLock = (db: DB, id: number) => db.deleteFrom('lfs_lock').where('id', '=', id).execute();

/** Repositories that hold `oid` (at most `limit` of them). */
export function reposHoldingOid(db: DB, oid: string, limit = 100): Promise<Repository[]> {
  return db.selectFrom('lfs_meta_object as m').innerJoin('repository as r', 'r.id', 'm.repository_id')
    .selectAll('r').where('m.oid', '=', oid).limit(limit).execute();
}
