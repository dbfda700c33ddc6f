import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';

// Never edit a migration once it has landed: add a new numbered one.
// Intents (pending_op, 0036) with several nodes on one PostgreSQL (issue 35): the node that
// recorded the intent (or adopted it), and until when (unix ms, database time) an adopter's
// claim holds. A row whose owner's heartbeat expired and whose lease ran out is adopted and
// recovered by any live node. Rows from before this migration have no owner: any node takes
// them. SQLite gets the same schema; one node recovers every row at its start, as before.

export async function up(db: Kysely<unknown>): Promise<void> {
  const big = dialectOf(db).engine === 'postgres' ? 'BIGINT' : 'INTEGER';
  await sql.raw(`ALTER TABLE pending_op ADD COLUMN owner TEXT NOT NULL DEFAULT ''`).execute(db);
  await sql.raw(`ALTER TABLE pending_op ADD COLUMN lease_until ${big} NOT NULL DEFAULT 0`).execute(db);
}
