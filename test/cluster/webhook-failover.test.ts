import { expect, it } from 'vitest';
import { startClusterPair, type ClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { ok } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Webhook deliveries on two nodes when the one sending dies or stalls (issue 35): a slow
// receiver holds each request, a burst of events for one hook queues its deliveries behind one
// key, and the node whose worker holds the running delivery is SIGKILLed (or SIGSTOPped)
// mid-request. Its lease runs out, the other node takes the job back and sends it again, then
// the rest, in the order of the events.

const LEASE_S = 6;
const HOLD_MS = 3_000;
const COMMENTS = 5;

type Burst = { pair: ClusterPair; receiver: Receiver; hookId: number; uuids: string[]; victim: number };

/** The pair's node (0 or 1) whose process runs as the node row `nodeId`. */
async function nodeIndexOf(pair: ClusterPair, nodeId: string): Promise<number> {
  const row = await pair.db.selectFrom('node').select('pid').where('id', '=', nodeId).executeTakeFirstOrThrow();
  const i = pair.nodes.findIndex((n) => n.child.pid === row.pid);
  if (i < 0) throw new Error(`node ${nodeId} (pid ${row.pid}) is not one of the pair`);
  return i;
}

/**
 * Two nodes, a hook on a slow receiver, COMMENTS comments made through the proxy; resolves while
 * the receiver holds the second delivery, with the node that runs it (`victim`).
 */
async function burstOfComments(pair: ClusterPair, receiver: Receiver): Promise<Burst> {
  await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'hooked' } }), 201);
  const hook = await ok(await pair.call('repos/root/hooked/hooks', {
    method: 'POST', json: { type: 'gitea', active: true, events: ['issue_comment'], config: { url: receiver.url, content_type: 'json' } },
  }), 201);
  const issue = await ok(await pair.call('repos/root/hooked/issues', { method: 'POST', json: { title: 'busy' } }), 201);
  // Through the proxy: the comments are made on both nodes, in this order.
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
  const running = await pair.db.selectFrom('job').select(['locked_by', 'payload']).where('key', '=', `hook:${hook.id}`)
    .where('state', '=', 'running').executeTakeFirstOrThrow();
  expect(JSON.parse(running.payload)).toEqual({ taskId: tasks[1]!.id });
  return { pair, receiver, hookId: hook.id, uuids: tasks.map((t) => t.uuid), victim: await nodeIndexOf(pair, running.locked_by) };
}

const jobsLeft = async (b: Burst) => (await b.pair.db.selectFrom('job').select('id').where('key', '=', `hook:${b.hookId}`).execute()).length;

/** Every delivery reached the receiver, in event order, only the interrupted second one twice; when it came again. */
function expectKeyOrder(b: Burst): number {
  const received = b.receiver.requests.map((r) => b.uuids.indexOf(String(r.headers['x-gitea-delivery'])));
  expect(received).not.toContain(-1);
  // Each delivery at least once; nothing overtakes another.
  expect([...new Set(received)]).toEqual(b.uuids.map((_, i) => i));
  expect(received).toEqual([...received].sort((x, y) => x - y));
  expect(received.filter((i) => i === 1).length).toBe(2);
  expect(received.length).toBe(COMMENTS + 1);
  return b.receiver.requests.filter((r) => r.headers['x-gitea-delivery'] === b.uuids[1])[1]!.at;
}

/** One hook_task per comment, each delivered and successful; the interrupted one as its second attempt. */
async function expectTasksDelivered(b: Burst): Promise<void> {
  const done = await b.pair.db.selectFrom('hook_task').selectAll().where('hook_id', '=', b.hookId).orderBy('id').execute();
  expect(done.map((t) => t.uuid)).toEqual(b.uuids);
  for (const t of done) expect({ delivered: t.is_delivered, succeeded: t.is_succeed, status: t.status_code }).toEqual({ delivered: 1, succeeded: 1, status: 200 });
  expect(done.map((t) => t.attempts)).toEqual(b.uuids.map((_, i) => (i === 1 ? 2 : 1)));
}

async function withPair(test: (pair: ClusterPair, receiver: Receiver) => Promise<void>): Promise<void> {
  const receiver = await startReceiver({ holdMs: HOLD_MS });
  const pair = await startClusterPair({
    env: {
      HEARTH__QUEUE__LEASE: String(LEASE_S), HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
      // Longer than the hold and a stall: a held request is a slow success, not a timeout to retry.
      HEARTH__WEBHOOK__DELIVER_TIMEOUT: '60',
    },
  });
  try {
    await test(pair, receiver);
  } finally {
    for (const n of pair.nodes) { try { process.kill(-n.child.pid!, 'SIGCONT'); } catch { /* gone */ } }
    await pair.stop();
    await receiver.close();
  }
}

withPostgres('webhook deliveries when a node dies', () => {
  it('are sent again by the other node after the lease runs out, in event order, one hook_task each', () => withPair(async (pair, receiver) => {
    const b = await burstOfComments(pair, receiver);
    await pair.kill(b.victim);
    const killedAt = Date.now();
    // The survivor takes the job back once the lease ran out, then sends the rest.
    await eventually(async () => (await jobsLeft(b)) === 0, 90_000, 'every delivery job done');
    const again = expectKeyOrder(b);
    // Not before the dead node's lease ran out: renewed every third of it, it held at least two
    // thirds of it past the kill.
    expect(again - killedAt).toBeGreaterThan((LEASE_S * 1000 * 2) / 3 - 200);
    await expectTasksDelivered(b);
    expect(pair.nodes[1 - b.victim]!.out()).toMatch(/jobs whose node stopped renewing their lease run again/);
  }), 240_000);

  // A node that stalls (SIGSTOP: a long pause, a frozen VM) past its lease and then resumes is
  // alive with a delivery it no longer owns: it must not record its late outcome over the one of
  // the node that sent the delivery again, nor take the key's later jobs out of order.
  it('stalled past its lease, a node resumes without recording over the other node\'s redelivery', () => withPair(async (pair, receiver) => {
    const b = await burstOfComments(pair, receiver);
    const stalled = pair.nodes[b.victim]!;
    process.kill(-stalled.child.pid!, 'SIGSTOP');
    try {
      // The other node takes the job back and sends everything while the victim is frozen.
      await eventually(async () => (await jobsLeft(b)) === 0, 90_000, 'every delivery job done by the other node');
      await expectTasksDelivered(b);
    } finally {
      process.kill(-stalled.child.pid!, 'SIGCONT');
    }
    // The resumed node finds its lease gone: it stops that delivery and writes nothing. (Its
    // response was waiting in its socket: left to run on, it would record it within moments.)
    await new Promise((r) => setTimeout(r, 5_000));
    await expectTasksDelivered(b);
    expectKeyOrder(b);
    await eventually(async () => /job stopped: its lease was lost/.test(stalled.out()), 30_000, 'the resumed node stopped the job');
    expect(await jobsLeft(b)).toBe(0);
  }), 240_000);
});
