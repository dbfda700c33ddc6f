import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// The "Viewed" boxes of a pull request's files: one row per user, pull request and path, with
// the blob the user saw. A file counts as viewed while its blob at the head is still that one,
// so a push that changes it brings it back unviewed (Gitea keeps the same per-user state).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE pull_viewed_file (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
    issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    blob_sha TEXT NOT NULL,
    updated_unix INTEGER NOT NULL
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX idx_pull_viewed_file ON pull_viewed_file (user_id, issue_id, path)`.execute(db);
}
