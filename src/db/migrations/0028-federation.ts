import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Federation: each user's ActivityPub key pair (Gitea keeps it in user settings), made on first
// use; the private key sealed with the instance secret.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE user_keypair (
    user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
    public_pem TEXT NOT NULL,
    private_sealed TEXT NOT NULL,
    created_unix INTEGER NOT NULL
  )`.execute(db);
}
