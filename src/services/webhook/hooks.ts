// The webhooks API of repositories, organizations, users and the site, as Gitea's
// routers/api/v1/utils/hook.go (addHook, editHook) and admin/hooks.go.

import type { DB } from '../../db/connect';
import type { Webhook } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  deleteWebhook, getScopedWebhook, insertWebhook, listWebhooks, updateWebhook, type WebhookPatch, type WebhookScope,
} from '../../models/webhook';
import { parseHookConfig, parseHookType, type HookType, type ParsedHookConfig } from './formats';
import { eventsFromOption, isValidBranchFilter, serializeEventSettings, type EventsMode } from './hook-events';
import { auditWebhook } from '../audit/webhook-audit';
import {
  contentTypeCode, contentTypeName, hookAuthorization, hookMeta, sealHookAuthorization, sealHookSecret,
} from './hook-row';

/** Whose hooks a request manages: a repository's, an owner's (organization or user) or the site's. */
export type HookScope = { repoId: number } | { ownerId: number } | { site: true };

export type CreateHookInput = {
  type: string;
  config: Record<string, string>;
  events?: string[];
  branch_filter?: string;
  authorization_header?: string;
  active?: boolean;
  /** The web forms' trigger choice (the API has none: its hooks choose events). */
  events_mode?: EventsMode;
};
export type EditHookInput = Omit<Partial<CreateHookInput>, 'type'>;

/** A hook with its Authorization header in the clear: every caller here may manage the hook. */
export type HookView = { hook: Webhook; authorization: string };

const modelScope = (scope: HookScope): WebhookScope => ('site' in scope ? { site: {} } : scope);
const view = (instanceSecret: string, hook: Webhook): HookView => ({ hook, authorization: hookAuthorization(instanceSecret, hook) });

/** GET /admin/hooks `type`: system (also anything unknown, as Gitea), default, or all. */
function siteHooksOfType(type: string | undefined): WebhookScope {
  if (type === 'default') return { site: { system: false } };
  if (type === 'all') return { site: {} };
  return { site: { system: true } };
}

// Go's strconv.ParseBool, which Gitea applies to config.is_system_webhook.
const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

function systemFlag(config: Record<string, string>): boolean {
  const v = config.is_system_webhook ?? '';
  if (v === '' || GO_FALSE.includes(v)) return false;
  if (GO_TRUE.includes(v)) return true;
  throw new InvalidError('Invalid is_system_webhook value', 'config');
}

function checkBranchFilter(filter: string | undefined): string {
  const f = filter ?? '';
  if (f && !isValidBranchFilter(f)) throw new InvalidError('[branch_filter]: GlobPattern', 'branch_filter');
  return f;
}

/**
 * Gitea's addHook. As Gitea: `active` defaults to false, no events means ["push"], a site hook is
 * a default hook unless config.is_system_webhook says otherwise (other scopes check, then ignore
 * it: their hooks are found by repository or owner).
 */
export async function createHook(db: DB, instanceSecret: string, scope: HookScope, input: CreateHookInput): Promise<HookView> {
  const branchFilter = checkBranchFilter(input.branch_filter);
  const type = parseHookType(input.type);
  const parsed = parseHookConfig(type, input.config);
  const isSystem = systemFlag(input.config);
  const now = nowUnix();
  const hook = await db.transaction().execute(async (trx) => {
    const row = await insertWebhook(trx, {
      repo_id: 'repoId' in scope ? scope.repoId : 0,
      owner_id: 'ownerId' in scope ? scope.ownerId : 0,
      is_system_webhook: 'site' in scope && isSystem ? 1 : 0,
      type,
      ...configColumns(parsed),
      secret_sealed: sealHookSecret(instanceSecret, input.config.secret ?? ''),
      authorization_sealed: sealHookAuthorization(instanceSecret, input.authorization_header ?? ''),
      events: serializeEventSettings(eventsFromOption(input.events, branchFilter, input.events_mode)),
      is_active: input.active ? 1 : 0,
      created_unix: now,
      updated_unix: now,
    });
    await auditWebhook(trx, 'webhook.create', row);
    return row;
  });
  return view(instanceSecret, hook);
}

function configColumns(parsed: ParsedHookConfig): { url: string; content_type: number; http_method: string; meta: string } {
  return {
    url: parsed.url,
    content_type: contentTypeCode(parsed.contentType),
    http_method: parsed.httpMethod,
    meta: JSON.stringify(parsed.meta),
  };
}

/** One page of the scope's hooks; the site's are narrowed by `siteType` (GET /admin/hooks `type`). */
export async function listHooks(
  db: DB, instanceSecret: string, scope: HookScope, page: { offset: number; limit: number }, siteType?: string,
): Promise<{ hooks: HookView[]; total: number }> {
  const { hooks, total } = await listWebhooks(db, 'site' in scope ? siteHooksOfType(siteType) : scope, page);
  return { hooks: hooks.map((h) => view(instanceSecret, h)), total };
}

async function loadHook(db: DB, scope: HookScope, id: number): Promise<Webhook> {
  const hook = await getScopedWebhook(db, modelScope(scope), id);
  if (!hook) throw new NotFoundError();
  return hook;
}

export async function getHook(db: DB, instanceSecret: string, scope: HookScope, id: number): Promise<HookView> {
  return view(instanceSecret, await loadHook(db, scope, id));
}

const currentConfig = (hook: Webhook): ParsedHookConfig => ({
  url: hook.url,
  contentType: contentTypeName(hook.content_type),
  httpMethod: hook.http_method as ParsedHookConfig['httpMethod'],
  meta: hookMeta(hook),
});

/**
 * Gitea's editHook: config keys given replace theirs; as Gitea, the events, the branch filter and
 * the Authorization header are always replaced (absent: ["push"], none, none); `active` only when
 * given. Beyond Gitea 1.25, which ignores it on edit, a given config.secret replaces the secret.
 */
export async function editHook(db: DB, instanceSecret: string, scope: HookScope, id: number, input: EditHookInput): Promise<HookView> {
  const hook = await loadHook(db, scope, id);
  const branchFilter = checkBranchFilter(input.branch_filter);
  const config = input.config ?? {};
  const parsed = parseHookConfig(hook.type as HookType, config, currentConfig(hook));
  const patch: WebhookPatch = {
    ...configColumns(parsed),
    events: serializeEventSettings(eventsFromOption(input.events, branchFilter, input.events_mode)),
    authorization_sealed: sealHookAuthorization(instanceSecret, input.authorization_header ?? ''),
    updated_unix: nowUnix(),
  };
  if (typeof config.secret === 'string') patch.secret_sealed = sealHookSecret(instanceSecret, config.secret);
  if (input.active !== undefined) patch.is_active = input.active ? 1 : 0;
  await db.transaction().execute(async (trx) => {
    await updateWebhook(trx, hook.id, patch);
    await auditWebhook(trx, 'webhook.update', { ...hook, ...patch });
  });
  return view(instanceSecret, (await getScopedWebhook(db, modelScope(scope), id))!);
}

/** Deletes the hook and its deliveries; 404 for a hook of another scope. */
export async function deleteHook(db: DB, scope: HookScope, id: number): Promise<void> {
  const hook = await loadHook(db, scope, id);
  await db.transaction().execute(async (trx) => {
    await deleteWebhook(trx, hook.id);
    await auditWebhook(trx, 'webhook.delete', hook);
  });
}
