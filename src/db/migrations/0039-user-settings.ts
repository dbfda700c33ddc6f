import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Gitea's user_setting: small per-user values by key. First use: the public key a user signs
// Chef's knife requests with (chef.public_pem).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE user_setting (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL,
    setting_key TEXT NOT NULL,
    setting_value TEXT NOT NULL DEFAULT ''
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX user_setting_user_key ON user_setting (user_id, setting_key)`.execute(db);
}
