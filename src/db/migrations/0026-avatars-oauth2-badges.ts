import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// repository.avatar: the hash of an uploaded repository avatar (Gitea's column); empty: none.
// oauth2_application: a user's OAuth2 applications (Gitea's oauth2_application), the client
// secret kept only as a sha256 hash. badge and user_badge: Gitea's user badges.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`ALTER TABLE repository ADD COLUMN avatar TEXT NOT NULL DEFAULT ''`,
    sql`CREATE TABLE oauth2_application (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      uid INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      client_id TEXT NOT NULL,
      client_secret_hash TEXT NOT NULL,
      redirect_uris TEXT NOT NULL DEFAULT '[]',
      confidential_client INTEGER NOT NULL DEFAULT 1,
      skip_secondary_authorization INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_oauth2_application_client_id ON oauth2_application (client_id)`,
    sql`CREATE INDEX idx_oauth2_application_uid ON oauth2_application (uid)`,
    sql`CREATE TABLE badge (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      slug TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      image_url TEXT NOT NULL DEFAULT ''
    )`,
    sql`CREATE UNIQUE INDEX idx_badge_slug ON badge (slug)`,
    sql`CREATE TABLE user_badge (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      badge_id INTEGER NOT NULL REFERENCES badge (id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX idx_user_badge_user_badge ON user_badge (user_id, badge_id)`,
  ];
  for (const s of statements) await s.execute(db);
}
