import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { Webhook, WebhookTable } from '../db/schema';

// Gitea's webhook table: a repository's hooks (repo_id), an organization's or user's (owner_id),
// and the site's (both 0): default hooks (copied into new repositories) and system hooks
// (is_system_webhook: fired for every repository).

export type NewWebhook = Insertable<WebhookTable>;
export type WebhookPatch = Updateable<WebhookTable>;

/** Whose hooks: a repository's, an owner's, or the site's (system, default or, unset, both). */
export type WebhookScope = { repoId: number } | { ownerId: number } | { site: { system?: boolean } };

export async function insertWebhook(db: DB, row: NewWebhook): Promise<Webhook> {
  return db.insertInto('webhook').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Any hook by id: what a delivery reads (its hook may have changed since it was queued). */
export async function getWebhookById(db: DB, id: number): Promise<Webhook | undefined> {
  return db.selectFrom('webhook').selectAll().where('id', '=', id).executeTakeFirst();
}

function scoped(db: DB, scope: WebhookScope) {
  let q = db.selectFrom('webhook');
  if ('repoId' in scope) return q.where('repo_id', '=', scope.repoId);
  if ('ownerId' in scope) return q.where('owner_id', '=', scope.ownerId).where('repo_id', '=', 0);
  q = q.where('repo_id', '=', 0).where('owner_id', '=', 0);
  const { system } = scope.site;
  return system === undefined ? q : q.where('is_system_webhook', '=', system ? 1 : 0);
}

/** The hook `id` if it belongs to the scope (another repository's or owner's hook is not found). */
export async function getScopedWebhook(db: DB, scope: WebhookScope, id: number): Promise<Webhook | undefined> {
  return scoped(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page of a scope's hooks, oldest first, and how many there are. */
export async function listWebhooks(
  db: DB, scope: WebhookScope, page: { offset: number; limit: number },
): Promise<{ hooks: Webhook[]; total: number }> {
  const total = await scoped(db, scope).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const hooks = await scoped(db, scope).selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute();
  return { hooks, total: Number(total.n) };
}

export async function updateWebhook(db: DB, id: number, patch: WebhookPatch): Promise<void> {
  await db.updateTable('webhook').set(patch).where('id', '=', id).execute();
}

/** Gitea's UpdateWebhookLastStatus: how the last delivery went. */
export async function setWebhookLastStatus(db: DB, id: number, status: number): Promise<void> {
  await db.updateTable('webhook').set({ last_status: status }).where('id', '=', id).execute();
}

/** Deletes a hook with its delivery history (Gitea's DeleteWebhookByID). */
export async function deleteWebhook(db: DB, id: number): Promise<void> {
  await db.deleteFrom('hook_task').where('hook_id', '=', id).execute();
  await db.deleteFrom('webhook').where('id', '=', id).execute();
}

/** A repository's or owner's hooks and their deliveries, when the repository or owner goes. */
export async function deleteWebhooksOf(db: DB, scope: { repoId: number } | { ownerId: number }): Promise<void> {
  const column = 'repoId' in scope ? 'repo_id' : 'owner_id';
  const id = 'repoId' in scope ? scope.repoId : scope.ownerId;
  if (!id) return;
  const ids = db.selectFrom('webhook').select('id').where(column, '=', id);
  await db.deleteFrom('hook_task').where('hook_id', 'in', ids).execute();
  await db.deleteFrom('webhook').where(column, '=', id).execute();
}

/**
 * Gitea's PrepareWebhooks sources, in its order: the repository's active hooks, its owner's,
 * then the active system hooks. `repoId` 0: an owner-level event; `ownerId` 0: no owner hooks.
 */
export async function activeHooksFor(db: DB, repoId: number, ownerId: number): Promise<Webhook[]> {
  // One statement for the three sources (each event asks; on PostgreSQL a statement is a round
  // trip), ordered source by source as three reads would give them.
  return db.selectFrom('webhook').selectAll().where('is_active', '=', 1)
    .where((eb) => eb.or([
      ...(repoId ? [eb('repo_id', '=', repoId)] : []),
      ...(ownerId ? [eb.and([eb('owner_id', '=', ownerId), eb('repo_id', '=', 0)])] : []),
      eb.and([eb('repo_id', '=', 0), eb('owner_id', '=', 0), eb('is_system_webhook', '=', 1)]),
    ]))
    .orderBy((eb) => eb.case().when('repo_id', '!=', 0).then(0).when('owner_id', '!=', 0).then(1).else(2).end())
    .orderBy('id')
    .execute();
}

/** Gitea's CopyDefaultWebhooksToRepo: each default hook, active or not, becomes the repository's own. */
export async function copyDefaultWebhooksToRepo(db: DB, repoId: number, now: number): Promise<void> {
  const defaults = await scoped(db, { site: { system: false } }).selectAll().orderBy('id').execute();
  for (const { id: _id, ...hook } of defaults) {
    await insertWebhook(db, { ...hook, repo_id: repoId, created_unix: now, updated_unix: now });
  }
}
