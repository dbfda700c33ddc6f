import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Pull mirrors (Gitea's mirror table), push mirrors (push_mirror), and the authors of migrated
// rows who have no account here (Gitea's original_author / original_author_id columns).

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // One per pull-mirror repository. The remote address is kept without credentials; those
    // are sealed with the instance key. interval_seconds 0: no scheduled syncs.
    sql`CREATE TABLE mirror (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL UNIQUE REFERENCES repository(id) ON DELETE CASCADE,
      remote_address TEXT NOT NULL,
      credentials_sealed TEXT NOT NULL DEFAULT '',
      interval_seconds INTEGER NOT NULL DEFAULT 28800,
      enable_prune INTEGER NOT NULL DEFAULT 1,
      updated_unix INTEGER NOT NULL DEFAULT 0,
      next_update_unix INTEGER NOT NULL DEFAULT 0,
      last_error TEXT NOT NULL DEFAULT ''
    )`,
    sql`CREATE INDEX idx_mirror_next_update ON mirror (next_update_unix)`,
    sql`CREATE TABLE push_mirror (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      remote_name TEXT NOT NULL,
      remote_address TEXT NOT NULL,
      credentials_sealed TEXT NOT NULL DEFAULT '',
      sync_on_commit INTEGER NOT NULL DEFAULT 1,
      interval_seconds INTEGER NOT NULL DEFAULT 28800,
      created_unix INTEGER NOT NULL,
      last_update_unix INTEGER NOT NULL DEFAULT 0,
      last_error TEXT NOT NULL DEFAULT ''
    )`,
    sql`CREATE UNIQUE INDEX idx_push_mirror_name ON push_mirror (repo_id, remote_name)`,
  ];
  for (const table of ['issue', 'comment', 'reaction', 'release', 'review']) {
    statements.push(sql`ALTER TABLE ${sql.table(table)} ADD COLUMN original_author TEXT NOT NULL DEFAULT ''`);
    statements.push(sql`ALTER TABLE ${sql.table(table)} ADD COLUMN original_author_id INTEGER NOT NULL DEFAULT 0`);
  }
  for (const s of statements) await s.execute(db);
}
