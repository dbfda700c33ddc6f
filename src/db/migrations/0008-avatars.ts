import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// user.avatar: the hash of an uploaded avatar (Gitea's column); empty means the generated one.
// The image itself lives under <data_dir>/avatars/<user id>.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE user ADD COLUMN avatar TEXT NOT NULL DEFAULT ''`.execute(db);
}
