import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrations, POSTGRES_BASELINE_COVERS } from '../migrations';
import { BASELINE_COVERS, baselineStatements } from './baseline';

// PostgreSQL's migrations: the baseline (SQLite's schema up to POSTGRES_BASELINE_COVERS, as one
// migration) and then every later migration of the shared list, each of which writes both
// engines' SQL itself. Reached only through connect.ts's dynamic import, so a SQLite start never
// evaluates this file.

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

export const BASELINE_MIGRATION = `${POSTGRES_BASELINE_COVERS.slice(0, 4)}-postgres-baseline`;

// The generated baseline and the shared list agree on where one ends and the other starts;
// scripts/postgres-baseline.ts writes BASELINE_COVERS from the same constant.
if (BASELINE_COVERS !== POSTGRES_BASELINE_COVERS) throw new Error('src/db/postgres/baseline.ts is stale: run scripts/postgres-baseline.ts');

const baseline: Migration = {
  async up(db) {
    // One statement a query: a prepared (extended protocol) query carries one statement only.
    for (const statement of baselineStatements) await sql.raw(statement).execute(db);
  },
};

/** PostgreSQL's list: the baseline, then the shared migrations after the ones it stands for. */
export const postgresMigrations = (): Record<string, Migration> => ({
  [BASELINE_MIGRATION]: baseline,
  ...Object.fromEntries(Object.entries(migrations).filter(([name]) => name > POSTGRES_BASELINE_COVERS)),
});

// Any fixed number: every hearth node takes the same session lock before migrating.
export const MIGRATION_LOCK = 0x6865617274; // "heart"

// A plain comparison, as SQLite's migrator: Kysely's default localeCompare loads ICU collation data.
// Unordered, as SQLite's: branches land migrations out of number order (0054 after 0055).
const migratorOf = (db: AnyDb) => new Migrator({
  db, allowUnorderedMigrations: true, provider: { getMigrations: async () => postgresMigrations() }, nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

/** The migrations PostgreSQL has not had yet. */
export async function pendingPostgresMigrations(db: AnyDb): Promise<string[]> {
  return (await migratorOf(db).getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}

/**
 * Applies the pending migrations (in one transaction: PostgreSQL's DDL is transactional) under a
 * session advisory lock held on one connection. Kysely's migrator locks too, but only once its
 * tables exist: two nodes starting on an empty database would both create them and one would fail.
 */
export async function migratePostgres(db: AnyDb): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK}::bigint)`.execute(conn);
    try {
      const { error, results } = await migratorOf(conn).migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK}::bigint)`.execute(conn);
    }
  });
}
