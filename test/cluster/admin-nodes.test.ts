import { expect, it } from 'vitest';
import { startClusterPair, type ClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { basicHeader } from '../helpers/server';
import { eventually } from '../helpers/wait';

// The site administration's dashboard lists the nodes sharing the database: each live, one the
// cron leader, the node that answered marked; a killed node shows silent, and the leadership
// moves to the survivor.

const LEADER = /this node is the cron leader/;

type Row = { id: string; state: string };
/** The dashboard's node rows as node `i` answers them. */
async function nodeRows(pair: ClusterPair, i: number): Promise<Row[]> {
  const res = await fetch(`${pair.nodes[i]!.url}/-/admin`, { headers: { Authorization: basicHeader('root', pair.password) } });
  expect(res.status).toBe(200);
  const page = await res.text();
  const table = /<h2 id="nodes">Nodes<\/h2>([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
  return [...table.matchAll(/<tr id="node-([0-9a-f-]+)">[\s\S]*?<td>([^<]*)<\/td><\/tr>/g)].map((m) => ({ id: m[1]!, state: m[2]! }));
}

withPostgres('the nodes on the admin dashboard', () => {
  it('lists both nodes with the leader and the answering node; a killed one goes silent and the other leads', async () => {
    const pair = await startClusterPair({ nodeTimeout: 4 });
    try {
      await eventually(async () => pair.nodes.some((n) => LEADER.test(n.out())), 30_000, 'a cron leader');
      const ids = new Map((await pair.db.selectFrom('node').select(['id', 'pid']).execute()).map((n) => [n.pid, n.id]));
      const idOf = (i: number) => ids.get(pair.nodes[i]!.child.pid!)!;
      const leader = pair.nodes.findIndex((n) => LEADER.test(n.out()));
      for (const i of [0, 1]) {
        const rows = await nodeRows(pair, i);
        expect(rows.map((r) => r.id).sort()).toEqual([idOf(0), idOf(1)].sort());
        expect(rows.filter((r) => r.state.includes('cron leader')).map((r) => r.id)).toEqual([idOf(leader)]);
        expect(rows.filter((r) => r.state.includes('answered this page')).map((r) => r.id)).toEqual([idOf(i)]);
        expect(rows.every((r) => r.state.startsWith('live'))).toBe(true);
      }

      await pair.kill(leader);
      const survivor = 1 - leader;
      await eventually(async () => {
        const rows = await nodeRows(pair, survivor);
        const dead = rows.find((r) => r.id === idOf(leader));
        // Silent, then adopted and forgotten: either way no longer live nor leading.
        return (!dead || dead.state === 'silent') && rows.find((r) => r.id === idOf(survivor))!.state === 'live, cron leader, answered this page';
      }, 60_000, 'the survivor leads and the killed node is no longer live');
    } finally {
      await pair.stop();
    }
  }, 150_000);
});
