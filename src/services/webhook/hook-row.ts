// Reading a webhook row: its sealed secrets, its type-specific settings and its events, for the
// hooks API and for deliveries.

import type { Webhook } from '../../db/schema';
import { seal, unseal } from '../../lib/secret-box';
import type { HookContentType, HookMeta, HookTarget, HookType } from './formats';
import { parseEventSettings, type HookEventSettings } from './hook-events';

const SECRET_PURPOSE = 'webhook-secret';
const AUTHORIZATION_PURPOSE = 'webhook-authorization';

export const sealHookSecret = (instanceSecret: string, plain: string): string => seal(instanceSecret, SECRET_PURPOSE, plain);
export const sealHookAuthorization = (instanceSecret: string, plain: string): string =>
  seal(instanceSecret, AUTHORIZATION_PURPOSE, plain);

/** The secret deliveries are signed with; '' when none. Throws when sealed under another key. */
export const hookSecret = (instanceSecret: string, hook: Webhook): string =>
  unseal(instanceSecret, SECRET_PURPOSE, hook.secret_sealed);

/** The Authorization header deliveries send; '' when none. Throws when sealed under another key. */
export const hookAuthorization = (instanceSecret: string, hook: Webhook): string =>
  unseal(instanceSecret, AUTHORIZATION_PURPOSE, hook.authorization_sealed);

/** webhook.content_type: 1 json, 2 form (Gitea's HookContentType). */
export const contentTypeName = (code: number): HookContentType => (code === 2 ? 'form' : 'json');
export const contentTypeCode = (name: HookContentType): number => (name === 'form' ? 2 : 1);

export function hookMeta(hook: Webhook): HookMeta {
  try {
    const parsed: unknown = JSON.parse(hook.meta);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const meta: HookMeta = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') meta[k] = v;
    return meta;
  } catch {
    return {};
  }
}

export const hookEvents = (hook: Webhook): HookEventSettings => parseEventSettings(hook.events);

/** What the formats need to build a delivery. */
export function hookTarget(hook: Webhook): HookTarget {
  return {
    type: hook.type as HookType,
    url: hook.url,
    httpMethod: hook.http_method,
    contentType: contentTypeName(hook.content_type),
    meta: hookMeta(hook),
  };
}
