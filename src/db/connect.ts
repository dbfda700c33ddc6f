import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, sql, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { loadSqliteAddon } from '../lib/native-sqlite';
import { dialectOf } from './dialect';
import { withCommitHooks } from './commit-hooks';
import { migrations } from './migrations';
import { withStatementCache, type StatementStats } from './statement-cache';
import type { Database } from './schema';
import type { Config } from '../config/schema';

export type DB = Kysely<Database>;

export type OpenOptions = { file: string; busyTimeout: number; cacheDir: string };

export function openDatabase(opts: OpenOptions): DB {
  fs.mkdirSync(path.dirname(opts.file), { recursive: true });
  const nativeBinding = loadSqliteAddon(opts.cacheDir);
  const sqlite = new SQLite(opts.file, nativeBinding ? { nativeBinding: nativeBinding as unknown as string } : {});
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${Math.trunc(opts.busyTimeout)}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // A WAL that grew while a long read held its snapshot is cut back to this after checkpoints,
  // instead of keeping its largest size on disk for good.
  sqlite.pragma('journal_size_limit = 67108864');
  const stats: StatementStats = { executed: 0, prepared: 0 };
  const db = new Kysely<Database>({ dialect: withCommitHooks(new SqliteDialect({ database: withStatementCache(sqlite, stats) })) });
  statsOf.set(db, stats);
  return db;
}

/** The database could not be opened (PostgreSQL unreachable, a refused login, no such database): one line, no stack. */
export class DatabaseConnectError extends Error {}

/**
 * The database the configuration names: SQLite's file, or a PostgreSQL pool. PostgreSQL's layer
 * (and `pg`) is loaded here, on first use, so that a SQLite start evaluates none of it.
 */
export async function openConfiguredDatabase(config: Pick<Config, 'database' | 'server'>): Promise<DB> {
  const { database } = config;
  if (database.driver === 'postgres') {
    const { openPostgres } = await import('./postgres/connect');
    return openPostgres({ url: database.url, poolSize: database.pool_size });
  }
  return openDatabase({ file: database.path, busyTimeout: database.busy_timeout, cacheDir: path.join(config.server.data_dir, 'cache') });
}

const statsOf = new WeakMap<object, StatementStats>();

/** Registers the counters a database's driver keeps (statement-cache.ts, postgres/connect.ts). */
export const trackStatements = (db: DB, stats: StatementStats): void => { statsOf.set(db, stats); };

/** How many statements a database ran and prepared since it was opened (tests count queries with it). */
export const statementStats = (db: DB): StatementStats => statsOf.get(db) ?? { executed: 0, prepared: 0 };

const provider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => migrations,
};

// A plain comparison: Kysely's default localeCompare loads ICU collation data (~2 MB resident).
// Unordered: 0005 and 0008 landed after 0007, so a database made before them has a later
// migration applied than these pending ones; they run then all the same.
const migratorOf = (db: DB) => new Migrator({
  db, provider, allowUnorderedMigrations: true, nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

/** The migrations this hearth has that the database has not had yet (either engine). */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const postgres = await postgresMigrator(db);
  if (await upToDate(db, postgres?.postgresMigrations() ?? migrations)) return [];
  if (postgres) return postgres.pendingPostgresMigrations(db);
  return (await migratorOf(db).getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}

// PostgreSQL's migrator, reached by a dynamic import only when the database is PostgreSQL:
// a SQLite start evaluates none of it.
const postgresMigrator = async (db: DB) => (dialectOf(db).engine === 'postgres' ? import('./postgres/migrate') : undefined);

/**
 * Whether the database has exactly this hearth's migrations, read in one query: Kysely's
 * migrator checks for its tables, takes its lock and reads them all in a transaction, ~6 ms of
 * every start for the usual answer "nothing to do". Anything else (a missing table, pending or
 * unknown migrations) goes to the migrator, which applies or refuses as before.
 */
async function upToDate(db: DB, list: Record<string, Migration>): Promise<boolean> {
  let rows: { name: string }[];
  try {
    rows = (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows;
  } catch {
    return false;
  }
  const names = new Set(rows.map((r) => r.name));
  return names.size === Object.keys(list).length && Object.keys(list).every((n) => names.has(n));
}

/** Applies pending migrations (either engine); returns the names applied. Throws on the first failure. */
export async function migrate(db: DB): Promise<string[]> {
  const postgres = await postgresMigrator(db);
  if (await upToDate(db, postgres?.postgresMigrations() ?? migrations)) return [];
  if (postgres) return postgres.migratePostgres(db);
  const { error, results } = await migratorOf(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
