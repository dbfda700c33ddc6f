import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Team review requests (Gitea's review.reviewer_team_id): a request addressed to a team has
// reviewer_id 0 and the team here; every other review keeps 0.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`ALTER TABLE review ADD COLUMN reviewer_team_id INTEGER NOT NULL DEFAULT 0`,
    // Deleting a team drops its requests without scanning every review.
    sql`CREATE INDEX idx_review_team ON review (reviewer_team_id)`,
  ];
  for (const s of statements) await s.execute(db);
}
