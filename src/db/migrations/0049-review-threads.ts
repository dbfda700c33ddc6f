import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Review threads of the files page: a line comment may cover a range of lines (`start_line`,
// on the same side as `line`, 0 for one line), and a thread is marked resolved on its first
// comment (`resolve_doer_id`, 0 while open), as Gitea's code comments carry their resolver.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE review_comment ADD COLUMN start_line INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE review_comment ADD COLUMN resolve_doer_id INTEGER NOT NULL DEFAULT 0`.execute(db);
  // The files page reads a pull request's line comments by issue.
  await sql`CREATE INDEX idx_review_comment_issue ON review_comment (issue_id, path)`.execute(db);
}
