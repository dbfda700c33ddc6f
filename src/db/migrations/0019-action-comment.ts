import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Deleting a comment drops the feed rows naming it (as Gitea hides them) without a scan.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX idx_action_comment ON action (comment_id)`.execute(db);
}
