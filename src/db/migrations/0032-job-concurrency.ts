import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Job-level `concurrency:` (Gitea's action_run_job raw_concurrency, concurrency_group and
// concurrency_cancel): the job's declaration as written (JSON), evaluated when its needs are
// done, since the group may read their outputs; the index finds a group's jobs in a repository.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE action_run_job ADD COLUMN raw_concurrency TEXT NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE action_run_job ADD COLUMN concurrency_group TEXT NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE action_run_job ADD COLUMN concurrency_cancel INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`CREATE INDEX idx_action_run_job_concurrency ON action_run_job (repo_id, concurrency_group) WHERE concurrency_group != ''`.execute(db);
}
