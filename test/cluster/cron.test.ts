import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeHearth, type Hearth } from '../../src/hearth';
import { joinCluster, type NodeMembership } from '../../src/services/cluster/node';
import { CRON_LEADER_LOCK } from '../../src/services/cron/cluster-cron';
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

/** Each node's cron, then its membership, then its handle, one node after the other. */
async function stopNodes(nodes: Node[]): Promise<void> {
  for (const n of nodes) {
    await n.cron.stop();
    await n.member.stop();
    await closeHearth(n.h);
  }
}
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
      await stopNodes(nodes);
    }
  }, 60_000);

  // A leader whose lock's connection ends (a network cut, a terminated session) is no longer the
  // leader: the other node takes over and runs the schedule; a task the old leader was running
  // (a long repository gc) must stop, not run on beside the new leader's.
  it('stops the task a leader runs when its leadership ends', async () => {
    const url = await freshDatabase(server, `cron_${process.pid}_${++counter}`);
    const stopped: { node: string; reason: string }[] = [];
    const started: string[] = [];
    const task = (h: Hearth): CronTask => ({
      defaults: { enabled: true, run_at_start: false, schedule: '@every 1s' },
      run: (ctx) => new Promise((resolve, reject) => {
        started.push(h.nodeId);
        const timer = setTimeout(() => resolve('ran to its end'), 30_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          stopped.push({ node: h.nodeId, reason: String((ctx.signal.reason as Error)?.message) });
          reject(new Error('stopped'));
        }, { once: true });
      }),
    });
    const nodes: Node[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const h = await openNode(url);
        const member = await joinCluster(h);
        const cron = new CronScheduler(h, { long: task(h) }, { leaderRetryMs: 200 });
        cron.start();
        nodes.push({ h, member, cron });
        if (i === 0) await eventually(async () => cron.isLeader(), 10_000, 'the first node leads');
      }
      const [a, b] = nodes as [Node, Node];
      await eventually(async () => started.includes(a.h.nodeId), 10_000, 'the leader runs the task');
      // The leader's lock session is cut from the server's side.
      // (The key as the lock took it: pg sends the number's decimal form.)
      const cut = await sql<{ cut: boolean }>`SELECT pg_terminate_backend(pid) AS cut FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND ((classid::bigint << 32) | objid::bigint) = ${String(CRON_LEADER_LOCK)}::bigint`.execute(b.h.db);
      expect(cut.rows).toEqual([{ cut: true }]);
      await eventually(async () => stopped.some((s) => s.node === a.h.nodeId), 10_000, 'the old leader stops its task');
      expect(stopped.find((s) => s.node === a.h.nodeId)!.reason).toBe('cron leadership lost');
      await eventually(async () => b.cron.isLeader() && started.includes(b.h.nodeId), 15_000, 'the other node leads and runs the task');
      const rows = await b.h.db.selectFrom('cron_run').select(['node', 'status']).where('task', '=', 'long').orderBy('id').execute();
      expect(rows[0]).toEqual({ node: a.h.nodeId, status: 'cancelled' });
    } finally {
      await stopNodes(nodes);
    }
  }, 60_000);
});
