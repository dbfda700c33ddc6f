import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../connect';

// PostgreSQL's side of several nodes on one database (issue 35): the node table's heartbeats and
// the job queue's claim and leases. Every time here is the database's clock (unix ms), never a
// node's: nodes whose clocks drift still agree on when a heartbeat or a lease is stale.
// Reached through import() from the services, so a SQLite start never evaluates it.

/** The database's clock in unix ms (clock_timestamp: the time of the statement, not of its transaction). */
export const dbNowMs: RawBuilder<number> = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export type NodeRow = { id: string; host: string; pid: number; pid_scope: string; started: number; heartbeat: number };

export type NodeSelf = { id: string; host: string; pid: number; pidScope: string };

export async function insertNode(db: DB, n: NodeSelf): Promise<void> {
  await db.insertInto('node').values({ id: n.id, host: n.host, pid: n.pid, pid_scope: n.pidScope, started: dbNowMs, heartbeat: dbNowMs })
    .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat: dbNowMs })).execute();
}

/** Writes the heartbeat; a row another node removed as stale (a long pause) is written again. */
export async function beatNode(db: DB, n: NodeSelf): Promise<void> {
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

export type NodeState = Omit<NodeRow, 'pid_scope'> & { heartbeat_age_ms: number; alive: boolean; leader: boolean };

/**
 * Every node row, whether its heartbeat is younger than `staleMs`, and whether it holds the session
 * lock `leaderKey` on a session named `leaderSession` + its id (pg_locks: a bigint key's high and
 * low halves are classid and objid, objsubid 1; split in SQL from the same parameter the lock was
 * taken with, since the key is past 2^53 and its JavaScript number is not exact).
 */
export async function nodesWithState(db: DB, staleMs: number, leaderKey: number, leaderSession: string): Promise<NodeState[]> {
  const r = await sql<NodeState>`SELECT n.id, n.host, n.pid, n.started, n.heartbeat,
    ${dbNowMs} - n.heartbeat AS heartbeat_age_ms, n.heartbeat > ${dbNowMs} - ${staleMs} AS alive,
    EXISTS (SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.classid = (${leaderKey}::bigint >> 32)::oid AND l.objid = (${leaderKey}::bigint & 4294967295)::oid
        AND a.application_name = ${leaderSession} || n.id) AS leader
    FROM node n ORDER BY n.started, n.id`.execute(db);
  return r.rows.map((n) => ({ ...n, pid: Number(n.pid), started: Number(n.started), heartbeat: Number(n.heartbeat), heartbeat_age_ms: Number(n.heartbeat_age_ms) }));
}

/** Removes the rows of nodes silent for `staleMs` (stopped without a clean stop); how many. */
export async function deleteStaleNodes(db: DB, staleMs: number): Promise<number> {
  const r = await db.deleteFrom('node').where('heartbeat', '<=', sql<number>`${dbNowMs} - ${staleMs}`).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * The nodes that ran where this one runs (same host, boot and pid namespace) and whose process is
 * gone (`alive` says no): their heartbeat is set to zero, so they count as dead at once (intents
 * adopted, row removed, branch rows resynced) instead of after the node timeout, and the leases
 * of their running jobs end, so the next requeue round takes them. Their ids.
 */
export async function expireGoneNeighbours(db: DB, me: NodeSelf, alive: (pid: number) => boolean): Promise<string[]> {
  if (!me.pidScope) return [];
  const rows = await db.selectFrom('node').select(['id', 'host', 'pid', 'pid_scope'])
    .where('host', '=', me.host).where('pid_scope', '=', me.pidScope).where('id', '<>', me.id).execute();
  const gone = rows.filter((r) => ranHereAndGone(r, me, alive)).map((r) => r.id);
  if (!gone.length) return [];
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('node').set({ heartbeat: 0 }).where('id', 'in', gone).execute();
    await trx.updateTable('job').set({ lease_until: 0 }).where('state', '=', 'running').where('locked_by', 'in', gone).execute();
  });
  return gone;
}

/** A node row of this machine (host, boot, pid namespace) whose process is gone. */
export function ranHereAndGone(
  n: Pick<NodeRow, 'host' | 'pid' | 'pid_scope'>, me: Pick<NodeSelf, 'host' | 'pid' | 'pidScope'>, alive: (pid: number) => boolean,
): boolean {
  return me.pidScope !== '' && n.host === me.host && n.pid_scope === me.pidScope && n.pid !== me.pid && !alive(n.pid);
}
