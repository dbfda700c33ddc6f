import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// strategy.max-parallel of a matrix job (Gitea's action_run_job max_parallel): at most that many
// of the job's combinations wait for or hold a runner at once; 0 is no limit.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE action_run_job ADD COLUMN max_parallel INTEGER NOT NULL DEFAULT 0`.execute(db);
}
