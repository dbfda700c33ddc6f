import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Runs of fork pull requests by users who cannot write the repository wait for a writer's
// approval (Gitea's need_approval and approved_by): until then their jobs stay blocked.
// approved_by also remembers that the user was approved once, so their later runs need none.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE action_run ADD COLUMN need_approval INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE action_run ADD COLUMN approved_by INTEGER NOT NULL DEFAULT 0`.execute(db);
}
