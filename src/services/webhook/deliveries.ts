import type { DB } from '../../db/connect';
import type { HookTask, User, Webhook } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { getHookTaskOfHook, listHookTasks } from '../../models/hook-task';
import { resolveRefCommit, dirOfRepo } from '../repo/contents-paths';
import type { RepoAccess } from '../repo/repos';
import { insertDelivery, queueDeliveries } from './dispatch';
import { apiUser, payloadContext } from './payloads';
import { pushPayload } from './push-payloads';
import { type Hearth, withDb } from '../../hearth';

// A hook's delivery history (Gitea shows it in its web UI only; hearth serves it in the API),
// redelivery, and the test delivery of POST .../hooks/{id}/tests.

export type DeliveryPage = { items: HookTask[]; total: number };

export const listDeliveries = (db: DB, hook: Webhook, page: { offset: number; limit: number }): Promise<DeliveryPage> =>
  listHookTasks(db, hook.id, page.offset, page.limit);

export async function getDelivery(db: DB, hook: Webhook, id: number): Promise<HookTask> {
  const task = Number.isSafeInteger(id) ? await getHookTaskOfHook(db, hook.id, id) : undefined;
  if (!task) throw new NotFoundError('delivery does not exist');
  return task;
}

/** Sends a delivery again, now: a new row with the same UUID and payload, marked a redelivery. */
export async function redeliver(h: Hearth, hook: Webhook, id: number): Promise<HookTask> {
  const old = await getDelivery(h.db, hook, id);
  const taskId = await h.db.transaction().execute((trx) => insertDelivery(withDb(h, trx), {
    hookId: hook.id, uuid: old.uuid, event: old.event, eventType: old.event_type, payload: old.payload_content, redelivery: true,
  }));
  return getDelivery(h.db, hook, taskId);
}

/**
 * POST .../hooks/{id}/tests?ref=: a push payload of the ref's head commit (the default branch
 * without one), sent to this hook whatever its events, as Gitea's TestHook.
 */
export async function testHook(h: Hearth, access: RepoAccess, hook: Webhook, doer: User, ref?: string): Promise<void> {
  if (access.repo.is_empty) throw new NotFoundError('the repository is empty');
  const dir = dirOfRepo(h.config, access);
  const rc = await resolveRefCommit(dir, access.repo, ref);
  const c = await payloadContext(h, access.repo, doer);
  if (!c) throw new NotFoundError();
  const full = rc.kind === 'tag' ? `refs/tags/${rc.name}` : `refs/heads/${rc.kind === 'branch' ? rc.name : access.repo.default_branch}`;
  const base = await pushPayload(c, dir, doer, { ref: full, oldId: '0'.repeat(rc.commit.length), newId: rc.commit });
  const head = base.head_commit;
  const payload = {
    ...base, before: rc.commit, after: rc.commit, compare_url: `${c.repository.html_url as string}/compare/${rc.commit}...${rc.commit}`,
    commits: head ? [head] : [], total_commits: head ? 1 : 0, pusher: apiUser(c, doer),
  };
  await queueDeliveries(h, [hook], 'push', payload);
}
