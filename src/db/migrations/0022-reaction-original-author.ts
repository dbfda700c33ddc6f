import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Migrated reactions of source users without an account here all belong to the migrating user,
// told apart by original_author: the unique index takes it in (as Gitea's), so two of them with
// the same emoji no longer collapse into one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX idx_reaction`.execute(db);
  await sql`CREATE UNIQUE INDEX idx_reaction ON reaction (type, issue_id, comment_id, user_id, original_author)`.execute(db);
}
