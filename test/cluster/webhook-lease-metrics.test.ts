import { expect, it } from 'vitest';
import { startClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { startReceiver } from '../helpers/receiver';
import { ok } from '../helpers/server';
import { eventually } from '../helpers/wait';

// hearth_webhook_deliveries_total counts the deliveries a node recorded. A node whose job was
// taken back by another node while its request was out (the database's lease ran out before the
// node's own deadline: a stall, a slow clock) sends the request, finds the lease gone when it
// comes to record the outcome, and writes nothing: it must count nothing either, or the cluster's
// counters add up to more deliveries than hook_task holds.

const LEASE_S = 60;
const HOLD_MS = 3_000;
const TOKEN = 'metrics-token';

/** The deliveries a node counted, of any outcome. */
async function deliveriesCounted(nodeUrl: string): Promise<number> {
  const metrics = await ok(await fetch(`${nodeUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }));
  const counted = /^hearth_webhook_deliveries_total\{[^}]*\}\s+(\d+)/gm;
  return [...String(metrics).matchAll(counted)].map((m) => Number(m[1])).reduce((a, b) => a + b, 0);
}

withPostgres('webhook delivery metrics under a lost lease', () => {
  it('counts nothing on a node whose lease was taken while its request was out', async () => {
    const receiver = await startReceiver({ holdMs: HOLD_MS });
    const pair = await startClusterPair({
      env: {
        HEARTH__QUEUE__LEASE: String(LEASE_S), HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', HEARTH__WEBHOOK__DELIVER_TIMEOUT: '60',
        HEARTH__METRICS__ENABLED: 'true', HEARTH__METRICS__TOKEN: TOKEN,
      },
    });
    try {
      await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'counted' } }), 201);
      const hook = await ok(await pair.call('repos/root/counted/hooks', {
        method: 'POST', json: { type: 'gitea', active: true, events: ['issues'], config: { url: receiver.url, content_type: 'json' } },
      }), 201);
      await ok(await pair.call('repos/root/counted/issues', { method: 'POST', json: { title: 'one delivery' } }), 201);
      // The receiver holds the request: its job runs under one node's lease.
      await eventually(async () => receiver.requests.length === 1, 60_000, 'the delivery under way');
      const job = await pair.db.selectFrom('job').select(['id', 'locked_by']).where('key', '=', `hook:${hook.id}`)
        .where('state', '=', 'running').executeTakeFirstOrThrow();
      const nodes = await pair.db.selectFrom('node').select(['id', 'pid']).execute();
      const holder = nodes.find((n) => n.id === job.locked_by)!;
      const other = nodes.find((n) => n.id !== job.locked_by)!;
      const sender = pair.nodes.find((n) => n.child.pid === holder.pid)!;
      // What the other node's sweep and claim leave once the lease ran out in database time: the
      // job is its now. (Renewals come every third of the lease: none before the answer.)
      await pair.db.updateTable('job').set({ locked_by: other.id }).where('id', '=', job.id).execute();
      await eventually(async () => /job stopped: its lease was lost/.test(sender.out()), 30_000, 'the sender stopped the job');
      const task = await pair.db.selectFrom('hook_task').select(['is_delivered']).where('hook_id', '=', hook.id).executeTakeFirstOrThrow();
      expect(task.is_delivered).toBeFalsy();
      expect(await deliveriesCounted(sender.url)).toBe(0);
      // The job pending again (as a sweep leaves it), one node sends and records it: counted once.
      await pair.db.updateTable('job').set({ state: 'pending', locked_by: '', lease_until: 0 }).where('id', '=', job.id).execute();
      await eventually(async () => Boolean((await pair.db.selectFrom('hook_task').select('is_delivered')
        .where('hook_id', '=', hook.id).executeTakeFirstOrThrow()).is_delivered), 60_000, 'the delivery recorded');
      const counts = await Promise.all(pair.nodes.map((n) => deliveriesCounted(n.url)));
      expect(counts[0]! + counts[1]!).toBe(1);
    } finally {
      await pair.stop();
      await receiver.close();
    }
  }, 180_000);
});
