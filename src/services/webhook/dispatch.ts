import crypto from 'node:crypto';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository, User, Webhook } from '../../db/schema';
import { insertHookTask } from '../../models/hook-task';
import { activeHooksFor } from '../../models/webhook';
import { enqueueJob } from '../jobs/queue';
import type { HookEvent } from './formats';
import { hookWants, parseEventSettings } from './hook-events';
import { payloadContext, type Payload, type PayloadContext } from './payloads';

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

/** The hooks of a repository (and its owner, and the site) that want `event` on `ref`. */
export async function hooksWanting(db: DB, repo: Repository, event: HookEvent, ref?: string): Promise<Webhook[]> {
  const hooks = await activeHooksFor(db, repo.id, repo.owner_id);
  return hooks.filter((h) => hookWants(parseEventSettings(h.events), event, ref));
}

/** Records one delivery per hook (same payload) and queues each; returns the task ids. */
export async function queueDeliveries(db: DB, config: Config, hooks: Webhook[], event: HookEvent, payload: Payload): Promise<number[]> {
  if (!hooks.length) return [];
  const text = JSON.stringify(payload);
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const hook of hooks) {
      const taskId = await insertHookTask(trx, { hookId: hook.id, uuid: crypto.randomUUID(), event: headerEvent(event), eventType: event, payload: text, now });
      const job: DeliverJob = { taskId };
      await enqueueJob(trx, { kind: DELIVER_JOB, key: `hook:${hook.id}`, payload: job, maxAttempts: config.webhook.max_attempts });
      ids.push(taskId);
    }
    return ids;
  });
}

export type Delivery = { event: HookEvent; ref?: string; build: (c: PayloadContext) => Promise<Payload> | Payload };

/**
 * Sends each delivery to the hooks that want it, building the payload context (repository,
 * sender) once and only when some hook wants something.
 */
export async function dispatch(db: DB, config: Config, repo: Repository, doer: User, deliveries: Delivery[]): Promise<void> {
  let ctx: PayloadContext | null | undefined;
  for (const d of deliveries) {
    const hooks = await hooksWanting(db, repo, d.event, d.ref);
    if (!hooks.length) continue;
    ctx ??= await payloadContext(db, config, repo, doer);
    if (!ctx) return;
    await queueDeliveries(db, config, hooks, d.event, await d.build(ctx));
  }
}
