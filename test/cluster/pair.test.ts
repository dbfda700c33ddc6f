import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { clusterEnv } from '../helpers/cluster';
import { startClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { runHearth } from '../helpers/process';
import { ok } from '../helpers/server';

// The shared two-node fixture: two `hearth web` processes started at the same moment on one
// PostgreSQL database and one data directory, a round-robin proxy in front of them.

withPostgres('two nodes on one data directory', () => {
  it('both start at once on a fresh data directory and serve the same instance through the proxy', async () => {
    const pair = await startClusterPair();
    try {
      // No pid lock on PostgreSQL; one secret key, whole, that both nodes read.
      expect(fs.existsSync(path.join(pair.dataDir, 'hearth.pid'))).toBe(false);
      expect(fs.readFileSync(path.join(pair.dataDir, 'secret_key'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
      expect(fs.readdirSync(pair.dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      // Exactly one node made (and printed) the first admin; the other found it made.
      expect(pair.nodes.filter((n) => /password:\s+\S+/.test(n.out())).length).toBe(1);
      const admins = await pair.db.selectFrom('user').select('name').where('is_admin', '=', 1).execute();
      expect(admins.map((a) => a.name)).toEqual(['root']);
      // Two live node rows.
      expect((await pair.db.selectFrom('node').select('id').execute()).length).toBe(2);

      await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'shared', auto_init: true }, node: 0 }), 201);
      const viaOther = await ok(await pair.call('repos/root/shared/branches/main', { node: 1 }));
      expect(viaOther.name).toBe('main');
      const before = [...pair.proxy.sent];
      for (let i = 0; i < 4; i++) await ok(await pair.call('repos/root/shared'));
      expect(pair.proxy.sent.map((n, i) => n - before[i]!)).toEqual([2, 2]);

      // No pid lock to find them by: doctor --fix asks the node table, and refuses while they run.
      const fix = await runHearth(['doctor', '--fix', '--data', pair.dataDir], clusterEnv(pair.databaseUrl));
      expect(fix.code).not.toBe(0);
      expect(fix.err).toMatch(/--fix: hearth is running on this database \(pid \d+ on .+, pid \d+ on .+\): stop every node first/);
    } finally {
      await pair.stop();
    }
  }, 120_000);

  it('a killed node answers 502 through the proxy, and comes back on restart', async () => {
    const pair = await startClusterPair();
    try {
      await pair.kill(1);
      pair.proxy.pin(1);
      const dead = await pair.call('version');
      expect(dead.status).toBe(502);
      expect(await dead.json()).toMatchObject({ message: expect.stringContaining('upstream 1') });
      await pair.restart(1);
      expect((await ok(await pair.call('version'))).version).toBeTruthy();
      pair.proxy.pin(null);
    } finally {
      await pair.stop();
    }
  }, 120_000);
});
