import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';

// Read-only queries over whole tables for maintenance (hearth doctor): SQLite's own checks and
// the rows that name files on disk.

/** `PRAGMA integrity_check`: ['ok'] for a sound file, else SQLite's list of faults. */
export async function integrityCheck(db: DB): Promise<string[]> {
  const { rows } = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
  return rows.map((r) => String(Object.values(r)[0]));
}

export type ForeignKeyFault = { table: string; rowid: number | null; parent: string };

/** `PRAGMA foreign_key_check`: rows whose parent row is gone. */
export async function foreignKeyCheck(db: DB): Promise<ForeignKeyFault[]> {
  const { rows } = await sql<ForeignKeyFault>`PRAGMA foreign_key_check`.execute(db);
  return rows.map((r) => ({ table: r.table, rowid: r.rowid, parent: r.parent }));
}

/** Names of the applied migrations; null when the database has no migration table at all. */
export async function appliedMigrations(db: DB): Promise<string[] | null> {
  if (!(await dialectOf(db).tableExists(db, 'kysely_migration'))) return null;
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return rows.map((r) => r.name);
}

export type UncheckedConstraint = { table: string; name: string };

/**
 * PostgreSQL's counterpart of foreign_key_check: it enforces every validated constraint on each
 * write, so rows can only break one added NOT VALID (and never validated since).
 */
export async function unvalidatedConstraints(db: DB): Promise<UncheckedConstraint[]> {
  const { rows } = await sql<UncheckedConstraint>`SELECT c.relname AS "table", k.conname AS name
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND k.contype IN ('f', 'c') AND NOT k.convalidated ORDER BY 1, 2`.execute(db);
  return rows;
}

export async function listAttachmentFiles(db: DB): Promise<{ id: number; uuid: string; name: string }[]> {
  return db.selectFrom('attachment').select(['id', 'uuid', 'name']).orderBy('id').execute();
}

export async function listUploadedAvatars(db: DB): Promise<{ id: number; name: string; avatar: string }[]> {
  return db.selectFrom('user').select(['id', 'name', 'avatar']).where('avatar', '<>', '').orderBy('id').execute();
}

export async function listPackageBlobs(db: DB): Promise<{ id: number; hash_sha256: string }[]> {
  return db.selectFrom('package_blob').select(['id', 'hash_sha256']).orderBy('id').execute();
}
