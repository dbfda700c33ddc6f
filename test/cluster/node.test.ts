import { afterAll, beforeAll, expect, it } from 'vitest';
import os from 'node:os';
import { closeHearth } from '../../src/hearth';
import { loadConfig } from '../../src/config/load';
import { heartbeatMs, joinCluster, nodeStaleMs } from '../../src/services/cluster/node';
import { freshDatabase, openNode } from '../helpers/cluster';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { eventually } from '../helpers/wait';

// Node identity on PostgreSQL: a running node is a row of the node table whose heartbeat moves
// in database time; a clean stop removes it.

let server: TempPostgres;
let counter = 0;
beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());

withPostgres('node identity on PostgreSQL', () => {
  it('registers each node with its host and pid, beats, and leaves on a clean stop', async () => {
    const url = await freshDatabase(server, `node_${process.pid}_${++counter}`);
    const [a, b] = [await openNode(url), await openNode(url)];
    try {
      expect(a.nodeId).not.toBe(b.nodeId);
      const ma = await joinCluster(a, { heartbeatMs: 100 });
      const mb = await joinCluster(b, { heartbeatMs: 100 });
      const rows = await a.db.selectFrom('node').selectAll().orderBy('started').execute();
      expect(rows.map((r) => r.id).sort()).toEqual([a.nodeId, b.nodeId].sort());
      for (const r of rows) {
        expect(r).toMatchObject({ host: os.hostname(), pid: process.pid });
        expect(Math.abs(r.heartbeat - Date.now())).toBeLessThan(60_000);
      }
      const first = rows.find((r) => r.id === a.nodeId)!.heartbeat;
      await eventually(async () => (await a.db.selectFrom('node').select('heartbeat').where('id', '=', a.nodeId).executeTakeFirstOrThrow()).heartbeat > first, 5_000, 'a later heartbeat');
      await ma.stop();
      expect((await b.db.selectFrom('node').select('id').execute()).map((r) => r.id)).toEqual([b.nodeId]);
      await mb.stop();
      expect(await b.db.selectFrom('node').select('id').execute()).toEqual([]);
    } finally {
      await closeHearth(a);
      await closeHearth(b);
    }
  });
});

it('[cluster] node_timeout sets when a node counts as dead, and the heartbeat beats every third of it', () => {
  const of = (env: Record<string, string>) => ({ config: loadConfig(null, { dataDir: os.tmpdir() }, env) });
  const byDefault = of({});
  expect([nodeStaleMs(byDefault), heartbeatMs(byDefault)]).toEqual([30_000, 10_000]);
  const short = of({ HEARTH__CLUSTER__NODE_TIMEOUT: '6' });
  expect([nodeStaleMs(short), heartbeatMs(short)]).toEqual([6_000, 2_000]);
  // Under three seconds a heartbeat would come more often than once a second: refused.
  expect(() => of({ HEARTH__CLUSTER__NODE_TIMEOUT: '1' })).toThrow(/node_timeout/);
});
