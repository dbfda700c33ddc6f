import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';

// Never edit a migration once it has landed: add a new numbered one.
// Several hearth nodes on one PostgreSQL (issue 35): the live nodes (each writes its heartbeat
// in database time; one that stops cleanly deletes its row), and the job queue's leases: the
// node running a job and until when (unix ms, database time) its claim holds unless renewed.
// The partial index serves the claim: pending jobs in the order they are taken. SQLite gets the
// same schema (one schema for both engines) and leaves the columns at their defaults.

export async function up(db: Kysely<unknown>): Promise<void> {
  const big = dialectOf(db).engine === 'postgres' ? 'BIGINT' : 'INTEGER';
  await sql.raw(`CREATE TABLE node (
    id TEXT PRIMARY KEY NOT NULL, host TEXT NOT NULL, pid ${big} NOT NULL,
    started ${big} NOT NULL, heartbeat ${big} NOT NULL
  )`).execute(db);
  await sql.raw(`ALTER TABLE job ADD COLUMN locked_by TEXT NOT NULL DEFAULT ''`).execute(db);
  await sql.raw(`ALTER TABLE job ADD COLUMN lease_until ${big} NOT NULL DEFAULT 0`).execute(db);
  await sql`CREATE INDEX idx_job_pending ON job (run_at, id) WHERE state = 'pending'`.execute(db);
  await sql`CREATE INDEX idx_job_lease ON job (lease_until) WHERE state = 'running'`.execute(db);
}
