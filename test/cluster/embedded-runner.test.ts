import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { eventually } from '../helpers/wait';

// `[actions] embedded_runner` on two nodes over one PostgreSQL and one data directory: each node
// runs a runner of its own (its own action_runner row, name and uuid), also after restarts, when
// a registration kept in the shared data directory would otherwise be read by both nodes and the
// two would poll as one runner.

const nameOf = (nodeUrl: string) => `hearth-embedded-${os.hostname().replace(/[^A-Za-z0-9._-]/g, '_')}-${new URL(nodeUrl).port}`;

withPostgres('the embedded Actions runner on two nodes', () => {
  it('is a runner of each node\'s own, polling under its own registration after both restart', async () => {
    const pair = await startClusterPair({ env: { HEARTH__ACTIONS__ENABLED: 'true', HEARTH__ACTIONS__EMBEDDED_RUNNER: 'true' } });
    try {
      const runners = () => pair.db.selectFrom('action_runner').select(['id', 'uuid', 'name', 'last_online_unix']).where('deleted_unix', 'is', null).execute();
      await eventually(async () => (await runners()).length >= 2, 60_000, 'both nodes registered a runner');
      // Restarted, each node reads a registration back from the shared data directory.
      await pair.restart(0);
      await pair.restart(1);
      const since = Math.floor(Date.now() / 1000) + 1;
      const polling = async () => (await runners()).filter((r) => r.last_online_unix >= since);
      // Both runners poll after the restarts: two rows seen since, one per node.
      await eventually(async () => (await polling()).length >= 2, 60_000, 'two runners polling');
      const live = await polling();
      expect(new Set(live.map((r) => r.uuid)).size).toBe(live.length);
      expect(live.map((r) => r.name).sort()).toEqual(pair.nodes.map((n) => nameOf(n.url)).sort());
      // Each keeps its registration and work directory apart from the other's.
      for (const n of pair.nodes) {
        const dir = path.join(pair.dataDir, 'actions-runner', 'nodes', nameOf(n.url).slice('hearth-embedded-'.length));
        expect(JSON.parse(fs.readFileSync(path.join(dir, '.runner'), 'utf8')).name).toBe(nameOf(n.url));
      }
    } finally {
      await pair.stop();
    }
  }, 240_000);
});
