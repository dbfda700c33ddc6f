import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Branches deleted by a push or through hearth, as Gitea keeps them (its branch rows marked
// deleted): the branches page lists them with a Restore button until the cron task
// `deleted_branches_cleanup` forgets them. One row per name: a later deletion replaces it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE deleted_branch (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    commit_id TEXT NOT NULL,
    deleted_by_id INTEGER NOT NULL DEFAULT 0,
    deleted_unix INTEGER NOT NULL
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX idx_deleted_branch_repo_name ON deleted_branch (repo_id, name)`.execute(db);
  await sql`CREATE INDEX idx_deleted_branch_unix ON deleted_branch (deleted_unix)`.execute(db);
}
