import { expect, it } from 'vitest';
import { startClusterPair, type ClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { startReceiver } from '../helpers/receiver';
import { ok } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Webhook deliveries on two nodes when the one sending dies (issue 35): a slow receiver holds
// each request, a burst of events for one hook queues its deliveries behind one key, and the
// node whose worker holds the running delivery is SIGKILLed mid-request. Its lease runs out, the
// other node takes the job back and sends it again, then the rest, in the order of the events.

const LEASE_S = 6;
const HOLD_MS = 3_000;
const COMMENTS = 5;

/** The pair's node (0 or 1) whose process runs as the node row `nodeId`. */
async function nodeIndexOf(pair: ClusterPair, nodeId: string): Promise<number> {
  const row = await pair.db.selectFrom('node').select('pid').where('id', '=', nodeId).executeTakeFirstOrThrow();
  const i = pair.nodes.findIndex((n) => n.child.pid === row.pid);
  if (i < 0) throw new Error(`node ${nodeId} (pid ${row.pid}) is not one of the pair`);
  return i;
}

withPostgres('webhook deliveries when a node dies', () => {
  it('are sent again by the other node after the lease runs out, in event order, one hook_task each', async () => {
    const receiver = await startReceiver({ holdMs: HOLD_MS });
    const pair = await startClusterPair({
      env: {
        HEARTH__QUEUE__LEASE: String(LEASE_S), HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
        // Longer than the hold: a held request is a slow success, not a timeout to retry.
        HEARTH__WEBHOOK__DELIVER_TIMEOUT: '30',
      },
    });
    try {
      await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'hooked' } }), 201);
      const hook = await ok(await pair.call('repos/root/hooked/hooks', {
        method: 'POST', json: { type: 'gitea', active: true, events: ['issue_comment'], config: { url: receiver.url, content_type: 'json' } },
      }), 201);
      const issue = await ok(await pair.call('repos/root/hooked/issues', { method: 'POST', json: { title: 'busy' } }), 201);
      // The burst, through the proxy: the comments are made on both nodes, in this order.
      for (let n = 1; n <= COMMENTS; n++) {
        await ok(await pair.call(`repos/root/hooked/issues/${issue.number}/comments`, { method: 'POST', json: { body: `comment ${n}` } }), 201);
      }
      const tasksOf = () => pair.db.selectFrom('hook_task').select(['id', 'uuid', 'payload_content']).where('hook_id', '=', hook.id).orderBy('id').execute();
      await eventually(async () => (await tasksOf()).length === COMMENTS, 30_000, 'a delivery per comment');
      const tasks = await tasksOf();
      expect(tasks.map((t) => (JSON.parse(t.payload_content) as { comment: { body: string } }).comment.body))
        .toEqual(Array.from({ length: COMMENTS }, (_, i) => `comment ${i + 1}`));

      // The second delivery is being held by the receiver: its job is running, leased by one node.
      await eventually(async () => receiver.requests.length >= 2, 60_000, 'second delivery under way');
      const running = await pair.db.selectFrom('job').select(['id', 'locked_by', 'payload']).where('key', '=', `hook:${hook.id}`)
        .where('state', '=', 'running').executeTakeFirstOrThrow();
      expect(JSON.parse(running.payload)).toEqual({ taskId: tasks[1]!.id });
      const victim = await nodeIndexOf(pair, running.locked_by);
      await pair.kill(victim);
      const killedAt = Date.now();

      // The survivor takes the job back once the lease ran out, then sends the rest.
      await eventually(async () => {
        const left = await pair.db.selectFrom('job').select('id').where('key', '=', `hook:${hook.id}`).execute();
        return left.length === 0;
      }, 90_000, 'every delivery job done');
      const order = tasks.map((t) => t.uuid);
      const received = receiver.requests.map((r) => order.indexOf(String(r.headers['x-gitea-delivery'])));
      expect(received).not.toContain(-1);
      // Each delivery at least once; the interrupted one may come twice; nothing overtakes another.
      expect([...new Set(received)]).toEqual(order.map((_, i) => i));
      expect(received).toEqual([...received].sort((a, b) => a - b));
      expect(received.filter((i) => i !== 1)).toEqual(order.map((_, i) => i).filter((i) => i !== 1));
      expect(received.filter((i) => i === 1).length).toBe(2);
      // Sent again only once the dead node's lease ran out: renewed every third of it, it held
      // for at least two thirds of it past the kill.
      const again = receiver.requests.filter((r) => r.headers['x-gitea-delivery'] === order[1])[1]!;
      expect(again.at - killedAt).toBeGreaterThan((LEASE_S * 1000 * 2) / 3 - 200);

      // One hook_task per comment, each ending delivered and successful; the redelivered one on its second attempt.
      const done = await pair.db.selectFrom('hook_task').selectAll().where('hook_id', '=', hook.id).orderBy('id').execute();
      expect(done.map((t) => t.uuid)).toEqual(order);
      for (const t of done) expect({ delivered: t.is_delivered, succeeded: t.is_succeed, status: t.status_code }).toEqual({ delivered: 1, succeeded: 1, status: 200 });
      expect(done.map((t) => t.attempts)).toEqual(order.map((_, i) => (i === 1 ? 2 : 1)));
      // The survivor is the one left in the node table's live rows and it did the redelivery.
      const survivor = pair.nodes[1 - victim]!;
      expect(survivor.out()).toMatch(/jobs whose node stopped renewing their lease run again/);
    } finally {
      await pair.stop();
      await receiver.close();
    }
  }, 240_000);
});
