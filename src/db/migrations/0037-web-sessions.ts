import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Browser sessions of the web interface: one row per signed-in browser, found by the SHA-256 of
// the cookie's random id (the id itself is never stored, so a copy of the database signs no one
// in). `keyboard_shortcuts` is the user's setting for the single-key shortcuts of the pages.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE web_session (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key_hash TEXT NOT NULL UNIQUE,
    uid INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
    created_unix INTEGER NOT NULL,
    last_seen_unix INTEGER NOT NULL,
    expires_unix INTEGER NOT NULL,
    remember INTEGER NOT NULL DEFAULT 0,
    ip TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT ''
  )`.execute(db);
  await sql`CREATE INDEX idx_web_session_uid ON web_session (uid)`.execute(db);
  await sql`CREATE INDEX idx_web_session_expires ON web_session (expires_unix)`.execute(db);
  await sql`ALTER TABLE user ADD COLUMN keyboard_shortcuts INTEGER NOT NULL DEFAULT 1`.execute(db);
}
