import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// The OAuth2 provider's state (Gitea's oauth2_grant and oauth2_authorization_code):
// - oauth2_grant: one per user and application, the scopes the user consented to; `counter`
//   numbers the refresh tokens issued on it (a refresh token of an older number was rotated
//   away: presenting it again revokes the grant, and with it every token of the family).
// - oauth2_authorization_code: only the SHA-256 of each code; single-use (`used_unix` kept so a
//   second use can be told from an unknown code, and revoke what the first one issued).
// - oauth2_signing_key: the RS256 key tokens are signed with, made once, its private half
//   sealed with the instance key (lib/secret-box).

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE oauth2_grant (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
      application_id INTEGER NOT NULL REFERENCES oauth2_application (id) ON DELETE CASCADE,
      scope TEXT NOT NULL DEFAULT '',
      nonce TEXT NOT NULL DEFAULT '',
      counter INTEGER NOT NULL DEFAULT 1,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_oauth2_grant_user_app ON oauth2_grant (user_id, application_id)`,
    sql`CREATE INDEX idx_oauth2_grant_app ON oauth2_grant (application_id)`,
    sql`CREATE TABLE oauth2_authorization_code (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      grant_id INTEGER NOT NULL REFERENCES oauth2_grant (id) ON DELETE CASCADE,
      code_hash TEXT NOT NULL UNIQUE,
      code_challenge TEXT NOT NULL DEFAULT '',
      code_challenge_method TEXT NOT NULL DEFAULT '',
      redirect_uri TEXT NOT NULL DEFAULT '',
      valid_until INTEGER NOT NULL,
      used_unix INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE INDEX idx_oauth2_authorization_code_grant ON oauth2_authorization_code (grant_id)`,
    sql`CREATE INDEX idx_oauth2_authorization_code_valid ON oauth2_authorization_code (valid_until)`,
    sql`CREATE TABLE oauth2_signing_key (
      id INTEGER PRIMARY KEY,
      kid TEXT NOT NULL,
      sealed_private_key TEXT NOT NULL,
      created_unix INTEGER NOT NULL
    )`,
  ];
  for (const s of statements) await s.execute(db);
}
