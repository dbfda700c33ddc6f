import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';

// hearth's search indexes: on SQLite, FTS5 tables (issue_fts, migration 0012); on PostgreSQL,
// pg_trgm GIN indexes on the indexed table itself (its baseline), kept by PostgreSQL. Listed from
// the schema rather than named, so an index added later is rebuilt by rebuild_issue_indexer as well.

/** The search indexes that can be rebuilt (FTS5 tables with their own content, or trigram indexes). */
export async function listRebuildableSearchIndexes(db: DB): Promise<string[]> {
  if (dialectOf(db).engine === 'postgres') {
    const r = await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes
      WHERE schemaname = current_schema() AND indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname`.execute(db);
    return r.rows.map((t) => t.name);
  }
  // Contentless FTS5 tables keep no copy of the indexed text and cannot be rebuilt.
  const r = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
    WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%' ORDER BY name`.execute(db);
  return r.rows.filter((t) => !/content\s*=\s*''/i.test(t.sql)).map((t) => t.name);
}

/** Rebuilds one search index from the table it indexes, in one statement. */
export async function rebuildSearchIndex(db: DB, name: string): Promise<void> {
  if (dialectOf(db).engine === 'postgres') await sql`REINDEX INDEX ${sql.ref(name)}`.execute(db);
  else await sql`INSERT INTO ${sql.table(name)} (${sql.ref(name)}) VALUES ('rebuild')`.execute(db);
}
