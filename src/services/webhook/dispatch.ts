import crypto from 'node:crypto';
import type { Repository, User, Webhook } from '../../db/schema';
import { insertHookTask, type NewHookTask } from '../../models/hook-task';
import { activeHooksFor } from '../../models/webhook';
import { enqueueJob } from '../jobs/queue';
import type { HookEvent } from './formats';
import { hookWants, parseEventSettings } from './hook-events';
import { payloadContext, type Payload, type PayloadContext } from './payloads';
import { type Hearth, withDb } from '../../hearth';

// From an event to deliveries: the active hooks of the repository, of its owner and of the
// site that want the event (and its branch) each get a hook_task row with the payload and a
// durable delivery job, in one transaction. Nothing is sent inside the request.

export const DELIVER_JOB = 'webhook.deliver';
export type DeliverJob = { taskId: number };

/** Gitea's HookEventType.Event(): the X-Gitea-Event header of an event type. */
export function headerEvent(e: HookEvent): string {
  switch (e) {
    case 'issue_assign': case 'issue_label': case 'issue_milestone': return 'issues';
    case 'pull_request_assign': case 'pull_request_label': case 'pull_request_milestone':
    case 'pull_request_sync': case 'pull_request_review_request': return 'pull_request';
    case 'issue_comment': case 'pull_request_comment': return 'issue_comment';
    case 'pull_request_review_approved': return 'pull_request_approved';
    case 'pull_request_review_rejected': return 'pull_request_rejected';
    case 'pull_request_review_comment': return 'pull_request_comment';
    default: return e;
  }
}

/** A delivery row and its durable job (`trx` should be a transaction: both or neither); the task id. */
export async function insertDelivery(h: Hearth, task: Omit<NewHookTask, 'now'>): Promise<number> {
  const taskId = await insertHookTask(h.db, { ...task, now: Date.now() });
  const job: DeliverJob = { taskId };
  await enqueueJob(h.db, { kind: DELIVER_JOB, key: `hook:${task.hookId}`, payload: job, maxAttempts: h.config.webhook.max_attempts });
  return taskId;
}

/** Records one delivery per hook (same payload) and queues each; returns the task ids. */
export async function queueDeliveries(h: Hearth, hooks: Webhook[], event: HookEvent, payload: Payload): Promise<number[]> {
  if (!hooks.length) return [];
  const text = JSON.stringify(payload);
  return h.db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const hook of hooks) {
      ids.push(await insertDelivery(withDb(h, trx), { hookId: hook.id, uuid: crypto.randomUUID(), event: headerEvent(event), eventType: event, payload: text }));
    }
    return ids;
  });
}

export type Delivery = { event: HookEvent; ref?: string; build: (c: PayloadContext) => Promise<Payload> | Payload };

/**
 * Sends each delivery to the hooks that want it, building the payload context (repository,
 * sender) once and only when some hook wants something.
 */
export async function dispatch(h: Hearth, repo: Repository, doer: User, deliveries: Delivery[]): Promise<void> {
  // The hooks of the repository, its owner and the site, read once for all the event's deliveries.
  const active = (await activeHooksFor(h.db, repo.id, repo.owner_id)).map((hook) => ({ hook, settings: parseEventSettings(hook.events) }));
  if (!active.length) return;
  let ctx: PayloadContext | null | undefined;
  for (const d of deliveries) {
    const hooks = active.filter((a) => hookWants(a.settings, d.event, d.ref)).map((a) => a.hook);
    if (!hooks.length) continue;
    ctx ??= await payloadContext(h, repo, doer);
    if (!ctx) return;
    await queueDeliveries(h, hooks, d.event, await d.build(ctx));
  }
}
