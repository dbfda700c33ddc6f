import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// A renamed user or organization leaves its old name behind, pointing at its id (Gitea's
// user_redirect), so requests to the old name's repositories are sent to the new one; a new
// account taking the old name removes the redirect.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE user_redirect (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lower_name TEXT NOT NULL,
    redirect_user_id INTEGER NOT NULL
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX idx_user_redirect_name ON user_redirect (lower_name)`.execute(db);
  await sql`CREATE INDEX idx_user_redirect_user ON user_redirect (redirect_user_id)`.execute(db);
}
