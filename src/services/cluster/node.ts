import os from 'node:os';
import type { Config } from '../../config/schema';
import type { Hearth } from '../../hearth';
import { dialectOf } from '../../db/dialect';
import { useClusterKeyLock } from '../../lib/keyed-lock';
import { isAlive, pidScope } from '../../lib/local-process';

// This node's membership of the cluster (issue 35). On PostgreSQL each running server is a row of
// the node table, its heartbeat written every third of `[cluster] node_timeout` in database time
// and its row removed on a clean stop; other nodes read a row silent for node_timeout as a node
// that died. On SQLite there is one node by construction (the data directory's pid lock): nothing
// is written. A member's withKeyLock also takes the key's advisory lock (db/postgres/key-locks.ts).

type ClusterConfig = { config: Pick<Config, 'cluster'> };

/** How long a node's heartbeat may be silent before it counts as dead (three missed beats). */
export const nodeStaleMs = (h: ClusterConfig): number => h.config.cluster.node_timeout * 1000;
/** How often a node writes its heartbeat. */
export const heartbeatMs = (h: ClusterConfig): number => Math.floor(nodeStaleMs(h) / 3);
/** Rows of nodes silent this long are dropped by whichever node beats next. */
const NODE_FORGOTTEN_MS = 24 * 3_600_000;

export type NodeMembership = { id: string; stop: () => Promise<void> };

/** Registers this node and keeps its heartbeat (PostgreSQL); a no-op on SQLite. */
export async function joinCluster(h: Hearth, opts: { heartbeatMs?: number } = {}): Promise<NodeMembership> {
  if (dialectOf(h.db).engine !== 'postgres') return { id: h.nodeId, stop: async () => {} };
  const [cluster, { openKeyLocks }] = await Promise.all([import('../../db/postgres/cluster'), import('../../db/postgres/key-locks')]);
  const me = { id: h.nodeId, host: os.hostname(), pid: process.pid, pidScope: pidScope() };
  // A node that ran here and died (this node's own earlier run, restarted after a crash) is
  // known dead by its pid: what it left is recovered now, not after the node timeout.
  const gone = await cluster.expireGoneNeighbours(h.db, me, isAlive);
  if (gone.length) h.log.warn({ nodes: gone }, 'nodes that ran on this machine are gone: their work is taken over now');
  await cluster.insertNode(h.db, me);
  // withKeyLock holds its keys across the nodes too, from here until the stop.
  const keyLocks = openKeyLocks(h.config.database.url);
  const unregister = useClusterKeyLock((key, fn) => keyLocks.withLock(key, fn));
  let beating: Promise<void> = Promise.resolve();
  const beat = async () => {
    try {
      await cluster.beatNode(h.db, me);
      await cluster.deleteStaleNodes(h.db, NODE_FORGOTTEN_MS);
    } catch (err) {
      h.log.warn({ err }, 'node heartbeat failed');
    }
  };
  const timer = setInterval(() => { beating = beat(); }, opts.heartbeatMs ?? heartbeatMs(h));
  timer.unref();
  let stopped: Promise<void> | null = null;
  return {
    id: me.id,
    stop: () => (stopped ??= (async () => {
      clearInterval(timer);
      unregister();
      await keyLocks.close().catch(() => undefined);
      await beating;
      await cluster.deleteNode(h.db, me.id).catch((err: unknown) => h.log.warn({ err }, 'node row not removed'));
    })()),
  };
}

/** A node as the site administration shows it; `self`: the node that answers. */
export type NodeView = {
  id: string; host: string; pid: number; startedMs: number; heartbeatAgeSeconds: number; alive: boolean; leader: boolean; self: boolean;
};

/** The cluster's nodes (PostgreSQL), whether each is live and which leads cron; null on SQLite (one node). */
export async function clusterNodes(h: Hearth): Promise<NodeView[] | null> {
  if (dialectOf(h.db).engine !== 'postgres') return null;
  const [{ nodesWithState }, { CRON_LEADER_LOCK, CRON_LEADER_SESSION }] = await Promise.all([
    import('../../db/postgres/cluster'), import('../cron/cluster-cron'),
  ]);
  const rows = await nodesWithState(h.db, nodeStaleMs(h), CRON_LEADER_LOCK, CRON_LEADER_SESSION);
  return rows.map((n) => ({
    id: n.id, host: n.host, pid: n.pid, startedMs: n.started, heartbeatAgeSeconds: Math.max(0, Math.round(n.heartbeat_age_ms / 1000)),
    alive: n.alive, leader: n.leader, self: n.id === h.nodeId,
  }));
}
