import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Releases (Gitea's release table): one row per tag name of a repository. `is_tag` rows stand
// for a tag whose release was deleted (Gitea keeps them so the tag can become a release again);
// the API never shows them. Assets are attachment rows with release_id set.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE release (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      publisher_id INTEGER NOT NULL DEFAULT 0,
      tag_name TEXT NOT NULL,
      lower_tag_name TEXT NOT NULL,
      target TEXT NOT NULL DEFAULT '',
      title TEXT NOT NULL DEFAULT '',
      note TEXT NOT NULL DEFAULT '',
      sha1 TEXT NOT NULL DEFAULT '',
      num_commits INTEGER NOT NULL DEFAULT 0,
      is_draft INTEGER NOT NULL DEFAULT 0,
      is_prerelease INTEGER NOT NULL DEFAULT 0,
      is_tag INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_release_tag ON release (repo_id, lower_tag_name)`,
    // Listings and "latest" walk a repository's releases newest first.
    sql`CREATE INDEX idx_release_repo_created ON release (repo_id, created_unix, id)`,
  ];
  for (const s of statements) await s.execute(db);
}
