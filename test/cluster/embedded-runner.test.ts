import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startClusterPair } from '../helpers/cluster-pair';
import { writeRunnerFile } from '../../src/runner/runner-file';
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

  it('retires the one-node runner it replaces, once offline, with its registration file', async () => {
    const pair = await startClusterPair({ env: { HEARTH__ACTIONS__ENABLED: 'true', HEARTH__ACTIONS__EMBEDDED_RUNNER: 'true' } });
    try {
      // What a move from one node leaves: its runner's row and registration in the shared directory.
      const now = Math.floor(Date.now() / 1000);
      const legacy = async (uuid: string, lastOnline: number) => {
        const row = await pair.db.insertInto('action_runner').values({ uuid, name: 'hearth-embedded', labels: '["hearth"]', last_online_unix: lastOnline, created_unix: now, updated_unix: now, deleted_unix: null })
          .returning('id').executeTakeFirstOrThrow();
        const file = path.join(pair.dataDir, 'actions-runner', '.runner');
        writeRunnerFile(file, { id: row.id, uuid, name: 'hearth-embedded', token: 'f'.repeat(40), address: 'http://127.0.0.1:1', labels: ['hearth'], ephemeral: false });
        return { id: row.id, file };
      };
      const deleted = async (id: number) => (await pair.db.selectFrom('action_runner').select('deleted_unix').where('id', '=', id).executeTakeFirstOrThrow()).deleted_unix !== null;
      // Seen a moment ago (a node of the earlier version may still run it): kept, file and all.
      const live = await legacy('00000000-0000-4000-8000-000000000001', now);
      await pair.restart(0);
      await eventually(async () => (await pair.db.selectFrom('action_runner').select('id').where('name', '=', nameOf(pair.nodes[0]!.url)).where('last_online_unix', '>=', now).execute()).length > 0, 60_000, 'node 0 runner polling');
      expect(await deleted(live.id)).toBe(false);
      expect(fs.existsSync(live.file)).toBe(true);
      // Offline for an hour: removed from the lists, its file gone.
      await pair.db.updateTable('action_runner').set({ last_online_unix: now - 3600 }).where('id', '=', live.id).execute();
      await pair.restart(1);
      await eventually(async () => deleted(live.id), 60_000, 'the one-node runner retired');
      expect(fs.existsSync(live.file)).toBe(false);
    } finally {
      await pair.stop();
    }
  }, 240_000);
});
