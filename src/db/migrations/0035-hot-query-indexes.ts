import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Queries that run on a timer must seek, not read a table that grows for years
// (test/db/hot-queries.test.ts): the tasks version every runner's FetchTask reads (the newest
// updated_unix of all jobs), and the push mirrors due for their interval.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX idx_action_run_job_updated ON action_run_job (updated_unix)`.execute(db);
  await sql`CREATE INDEX idx_push_mirror_due ON push_mirror (last_update_unix + interval_seconds)`.execute(db);
}
