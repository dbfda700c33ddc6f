import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Several nodes on one PostgreSQL (issue 35): where a node's pid means something (its machine's
// boot id and pid namespace). A node starting where a dead one ran (a restart after a crash,
// the common case of a single node on PostgreSQL) sees that pid gone and need not wait out the
// node timeout before recovering what it left. Rows from before this migration have none and
// are judged by their heartbeat alone. SQLite gets the same schema and writes no node rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE node ADD COLUMN pid_scope TEXT NOT NULL DEFAULT ''`).execute(db);
}
