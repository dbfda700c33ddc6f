import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// public_key.verified: the owner proved the SSH key is theirs by signing the verification token
// with it (Gitea's column; the settings page shows it).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE public_key ADD COLUMN verified INTEGER NOT NULL DEFAULT 0`.execute(db);
}
