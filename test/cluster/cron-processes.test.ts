import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/postgres/connect';
import { clusterEnv, freshDatabase } from '../helpers/cluster';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { killHard, startHearthProcess, type HearthProcess } from '../helpers/process';
import { eventually } from '../helpers/wait';

// Two `hearth web` processes on one PostgreSQL: one is the cron leader; SIGKILLed, the other
// takes over, and every slot of the cluster's cron_run table is run once.

let server: TempPostgres;
beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());

const LEADER = /this node is the cron leader/;

withPostgres('cron leader fail-over between two hearth web processes', () => {
  it('one leader; killed with SIGKILL, the other leads and runs the next slots, each once', async () => {
    const url = await freshDatabase(server, `cronp_${process.pid}`);
    // A cheap task every second, so slots come fast.
    const env = clusterEnv(url, {
      HEARTH__CRON__DELETE_OLD_SYSTEM_NOTICES__ENABLED: 'true', HEARTH__CRON__DELETE_OLD_SYSTEM_NOTICES__SCHEDULE: '@every 1s',
      HEARTH__SERVER__START_SSH_SERVER: 'false',
    });
    const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cronp-'));
    const nodes: HearthProcess[] = [await startHearthProcess(dir(), env)];
    nodes.push(await startHearthProcess(dir(), env));
    const db = await openPostgres({ url, poolSize: 2 });
    try {
      await eventually(async () => nodes.filter((n) => LEADER.test(n.out())).length === 1, 30_000, 'one leader');
      const leader = nodes.find((n) => LEADER.test(n.out()))!;
      const other = nodes.find((n) => n !== leader)!;
      const runs = () => db.selectFrom('cron_run').selectAll().where('task', '=', 'delete_old_system_notices').execute();
      await eventually(async () => (await runs()).length >= 2, 30_000, 'the leader runs the task');
      killHard(leader.child);
      await leader.exited;
      const before = (await runs()).length;
      await eventually(async () => LEADER.test(other.out()), 30_000, 'the other node leads');
      await eventually(async () => (await runs()).length >= before + 2, 30_000, 'the new leader runs the task');
      const rows = await runs();
      expect(new Set(rows.map((r) => r.slot)).size).toBe(rows.length);
      expect(new Set(rows.map((r) => r.node)).size).toBe(2);
    } finally {
      await db.destroy();
      for (const n of nodes) killHard(n.child);
    }
  }, 120_000);
});
