import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DB } from '../../src/db/connect';
import { openPostgres } from '../../src/db/postgres/connect';
import { clusterEnv, freshDatabase } from './cluster';
import { startPostgres, type TempPostgres } from './postgres';
import { killHard, processDatabaseEnv, startHearthProcess, type HearthProcess } from './process';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';
import { basicHeader } from './server';
import { eventually } from './wait';

// Two `hearth web` processes over one PostgreSQL database and ONE data directory (standing for
// the shared POSIX directory of issue 35: repositories/, the local blob store, the secret key),
// started at the same moment, with a round-robin proxy in front. In the PostgreSQL pass the
// database is a copy of the run's template; otherwise a throwaway cluster of the pair's own.

export type PairOptions = {
  /** More environment for both nodes. */
  env?: Record<string, string>;
  /** Environment for node `i` only (HEARTH_TEST_CRASH_AT on one of them). */
  envOf?: (i: number) => Record<string, string>;
  /** `[cluster] node_timeout` in seconds: how soon a killed node's work is adopted. */
  nodeTimeout?: number;
};

export type PairCall = (p: string, opts?: { method?: string; json?: unknown; node?: number }) => Promise<Response>;

export type ClusterPair = {
  nodes: HearthProcess[];
  dataDir: string;
  /** The database's URL (clusterEnv(databaseUrl) points a hearth command at it). */
  databaseUrl: string;
  proxy: RoundRobinProxy;
  proxyUrl: string;
  /** The nodes' database, for assertions. */
  db: DB;
  /** root's password (printed by whichever node made the first admin). */
  password: string;
  /** An API v1 call as root, through the proxy or straight to node `node`. */
  call: PairCall;
  /** SIGKILL to node `i`; resolves once it is gone. */
  kill: (i: number) => Promise<void>;
  /**
   * Starts node `i` again over the same data directory and database (killed first if alive), with
   * its environment less HEARTH_TEST_CRASH_AT (a node restarted after its crash runs on), plus `env`.
   */
  restart: (i: number, env?: Record<string, string>) => Promise<HearthProcess>;
  stop: () => Promise<void>;
};

async function pairDatabase(): Promise<{ url: string; server: TempPostgres | null }> {
  const run = await processDatabaseEnv();
  if (run.HEARTH__DATABASE__URL) return { url: run.HEARTH__DATABASE__URL, server: null };
  const server = startPostgres();
  return { url: await freshDatabase(server, `pair_${process.pid}_${Date.now()}`), server };
}

export async function startClusterPair(opts: PairOptions = {}): Promise<ClusterPair> {
  const { url, server } = await pairDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pair-'));
  const envOf = (i: number, more: Record<string, string> = {}) => clusterEnv(url, {
    HEARTH__SERVER__START_SSH_SERVER: 'false',
    ...(opts.nodeTimeout ? { HEARTH__CLUSTER__NODE_TIMEOUT: String(opts.nodeTimeout) } : {}),
    ...opts.env, ...opts.envOf?.(i), ...more,
  });
  // Both at once: what a first start makes in the data directory (the secret key, the hook
  // scripts, the first admin) is made by two nodes racing, as a cluster's cold start would.
  const nodes = await Promise.all([0, 1].map((i) => startHearthProcess(dataDir, envOf(i))));
  const proxy = await startRoundRobinProxy(nodes.map((n) => n.url));
  const db = await openPostgres({ url, poolSize: 2 });
  const printed = () => nodes.map((n) => /password:\s+(\S+)/.exec(n.out())?.[1]).find(Boolean);
  await eventually(async () => printed() !== undefined, 15_000, 'the first admin printed by one node');
  const password = printed()!;
  const call: PairCall = (p, o = {}) => fetch(`${o.node === undefined ? proxy.url : nodes[o.node]!.url}/api/v1/${p}`, {
    method: o.method ?? 'GET',
    headers: { Authorization: basicHeader('root', password), 'Content-Type': 'application/json' },
    body: o.json === undefined ? undefined : JSON.stringify(o.json),
  });
  const cleared = await call('admin/users/root', { method: 'PATCH', json: { login_name: 'root', source_id: 0, must_change_password: false } });
  if (!cleared.ok) throw new Error(`root's must_change_password not cleared: ${cleared.status} ${await cleared.text()}`);
  const kill = async (i: number) => {
    const n = nodes[i]!;
    killHard(n.child);
    await n.exited;
  };
  return {
    nodes, dataDir, databaseUrl: url, proxy, proxyUrl: proxy.url, db, password, call, kill,
    async restart(i, env = {}) {
      await kill(i);
      const n = await startHearthProcess(dataDir, envOf(i, { HEARTH_TEST_CRASH_AT: '', ...env }));
      nodes[i] = n;
      proxy.upstreams[i] = n.url;
      return n;
    },
    async stop() {
      for (const n of nodes) killHard(n.child);
      await Promise.all(nodes.map((n) => n.exited));
      await proxy.close();
      await db.destroy();
      server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
