import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { dialectOf } from '../../db/dialect';
import type { Logger } from '../../lib/logger';

// Each node's scratch space: uploads spooled while they arrive and the pre-receive hook's
// handshake directories live under <data_dir>/tmp/node-<id>, so that a node starting on a data
// directory another live node also uses (PostgreSQL, shared storage) sweeps only what nodes that
// are gone left behind, never another node's upload or push in flight.

type NodeOf = { config: Config; nodeId: string };

const PREFIX = 'node-';
const made = new Set<string>();

/** This node's temp directory (made on first use; on the data directory's file system, so a rename stores a file). */
export function nodeTmpDir(h: NodeOf): string {
  const dir = path.join(h.config.server.data_dir, 'tmp', `${PREFIX}${h.nodeId}`);
  if (!made.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  return dir;
}

/**
 * Removes the temp directories of nodes not in `live` (nor this one), and what the layout before
 * node directories left (tmp/uploads' files, tmp/push-* handshakes). Called at start, before
 * listening; returns the paths removed.
 */
export function sweepNodeTmp(h: NodeOf, live: string[]): string[] {
  const root = path.join(h.config.server.data_dir, 'tmp');
  const keep = new Set([...live, h.nodeId].map((id) => `${PREFIX}${id}`));
  const names = fs.existsSync(root) ? fs.readdirSync(root) : [];
  const gone = names.filter((n) => (n.startsWith(PREFIX) && !keep.has(n)) || n.startsWith('push-')).map((n) => path.join(root, n));
  const legacy = path.join(root, 'uploads');
  if (fs.existsSync(legacy)) gone.push(...fs.readdirSync(legacy).map((n) => path.join(legacy, n)));
  for (const p of gone) fs.rmSync(p, { recursive: true, force: true });
  return gone;
}

/**
 * The start's sweep of temp directories: on SQLite this node is the only one (every other
 * directory is debris); on PostgreSQL the nodes with a live heartbeat keep theirs.
 */
export async function sweepTmpAtStart(h: NodeOf & { db: DB; log: Logger }): Promise<void> {
  let live: string[] = [];
  if (dialectOf(h.db).engine === 'postgres') {
    const [{ liveNodes }, { nodeStaleMs }] = await Promise.all([import('../../db/postgres/cluster'), import('./node')]);
    live = (await liveNodes(h.db, nodeStaleMs(h))).map((n) => n.id);
  }
  const removed = sweepNodeTmp(h, live);
  if (removed.length) h.log.info({ removed: removed.length }, 'removed uploads and push handshakes that stopped nodes left');
}
