import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeHearth, type Hearth } from '../../src/hearth';
import { joinCluster, type NodeMembership } from '../../src/services/cluster/node';
import { CronScheduler } from '../../src/services/cron/scheduler';
import type { CronTask } from '../../src/services/cron/types';
import { freshDatabase, openNode } from '../helpers/cluster';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { eventually } from '../helpers/wait';

// Cron on two nodes over one PostgreSQL: one leader runs the scheduled tasks, each slot once;
// run_at_start runs on the cluster's first leader only; when the leader stops, the other node
// takes over; every node's task list shows the cluster's last run.

let server: TempPostgres;
let counter = 0;
beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());

type Node = { h: Hearth; member: NodeMembership; cron: CronScheduler };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

withPostgres('cron on two nodes over one PostgreSQL', () => {
  it('runs on one leader, each slot once; the other node takes over when the leader stops', async () => {
    const url = await freshDatabase(server, `cron_${process.pid}_${++counter}`);
    const ran: { node: string; at: number }[] = [];
    const task = (h: Hearth): CronTask => ({
      defaults: { enabled: true, run_at_start: true, schedule: '@every 1s' },
      run: async () => { ran.push({ node: h.nodeId, at: Date.now() }); return 'ticked'; },
    });
    const nodes: Node[] = [];
    const start = async () => {
      const h = await openNode(url);
      const member = await joinCluster(h);
      const cron = new CronScheduler(h, { tick: task(h) }, { leaderRetryMs: 200 });
      cron.start();
      nodes.push({ h, member, cron });
      return nodes[nodes.length - 1]!;
    };
    try {
      const a = await start();
      await eventually(async () => a.cron.isLeader(), 10_000, 'a leads');
      const b = await start();
      await pause(3_500);
      expect(b.cron.isLeader()).toBe(false);
      expect(ran.length).toBeGreaterThanOrEqual(2);
      expect(new Set(ran.map((r) => r.node))).toEqual(new Set([a.h.nodeId]));
      // b shows the run a made.
      const seen = (await b.cron.listRuns()).find((t) => t.name === 'tick')!;
      expect(seen.last).toMatchObject({ status: 'finished', message: 'ticked' });

      await a.cron.stop();
      const byA = ran.length;
      await eventually(async () => b.cron.isLeader(), 10_000, 'b takes over');
      await eventually(async () => ran.some((r) => r.node === b.h.nodeId), 5_000, 'b runs the task');
      await pause(1_500);
      await b.cron.stop();

      const rows = await b.h.db.selectFrom('cron_run').selectAll().where('task', '=', 'tick').orderBy('id').execute();
      // One row per run: no slot ran twice; the start run once, on the first leader.
      expect(rows.length).toBe(ran.length);
      expect(new Set(rows.map((r) => r.slot)).size).toBe(rows.length);
      expect(rows.filter((r) => r.slot.startsWith('start:')).map((r) => r.node)).toEqual([a.h.nodeId]);
      expect(rows.every((r) => r.status === 'finished')).toBe(true);
      // Once b leads, a runs nothing more.
      expect(ran.slice(byA).every((r) => r.node === b.h.nodeId)).toBe(true);
      expect(new Set(rows.map((r) => r.node))).toEqual(new Set([a.h.nodeId, b.h.nodeId]));
    } finally {
      for (const n of nodes) {
        await n.cron.stop();
        await n.member.stop();
        await closeHearth(n.h);
      }
    }
  }, 60_000);
});
