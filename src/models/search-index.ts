import { sql } from 'kysely';
import type { DB } from '../db/connect';

// hearth's search indexes are SQLite FTS5 tables (issue_fts, migration 0012). Listed from the
// schema rather than named, so an index added later is rebuilt by rebuild_issue_indexer as well.

/** The FTS5 tables that keep their own copy of an indexed table: contentless ones cannot be rebuilt. */
export async function listRebuildableFtsTables(db: DB): Promise<string[]> {
  const r = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
    WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%' ORDER BY name`.execute(db);
  return r.rows.filter((t) => !/content\s*=\s*''/i.test(t.sql)).map((t) => t.name);
}

/** Rebuilds one FTS5 index from its content table, in one statement. */
export async function rebuildFtsTable(db: DB, table: string): Promise<void> {
  await sql`INSERT INTO ${sql.table(table)} (${sql.ref(table)}) VALUES ('rebuild')`.execute(db);
}
