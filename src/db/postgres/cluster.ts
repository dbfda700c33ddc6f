import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../connect';

// PostgreSQL's side of several nodes on one database (issue 35): the node table's heartbeats and
// the job queue's claim and leases. Every time here is the database's clock (unix ms), never a
// node's: nodes whose clocks drift still agree on when a heartbeat or a lease is stale.
// Reached through import() from the services, so a SQLite start never evaluates it.

/** The database's clock in unix ms (clock_timestamp: the time of the statement, not of its transaction). */
export const dbNowMs: RawBuilder<number> = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export type NodeRow = { id: string; host: string; pid: number; started: number; heartbeat: number };

export async function insertNode(db: DB, n: { id: string; host: string; pid: number }): Promise<void> {
  await db.insertInto('node').values({ id: n.id, host: n.host, pid: n.pid, started: dbNowMs, heartbeat: dbNowMs })
    .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat: dbNowMs })).execute();
}

/** Writes the heartbeat; a row another node removed as stale (a long pause) is written again. */
export async function beatNode(db: DB, n: { id: string; host: string; pid: number }): Promise<void> {
  const r = await db.updateTable('node').set({ heartbeat: dbNowMs }).where('id', '=', n.id).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) await insertNode(db, n);
}

export async function deleteNode(db: DB, id: string): Promise<void> {
  await db.deleteFrom('node').where('id', '=', id).execute();
}

/** The nodes whose heartbeat is younger than `staleMs`, oldest start first. */
export function liveNodes(db: DB, staleMs: number): Promise<NodeRow[]> {
  return db.selectFrom('node').selectAll().where('heartbeat', '>', sql<number>`${dbNowMs} - ${staleMs}`)
    .orderBy('started').orderBy('id').execute();
}

/** Removes the rows of nodes silent for `staleMs` (stopped without a clean stop); how many. */
export async function deleteStaleNodes(db: DB, staleMs: number): Promise<number> {
  const r = await db.deleteFrom('node').where('heartbeat', '<=', sql<number>`${dbNowMs} - ${staleMs}`).executeTakeFirst();
  return Number(r.numDeletedRows);
}
