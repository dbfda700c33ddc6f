import type { Webhook } from '../db/schema';
import { isoTime } from '../lib/time';
import { hookConfigView, type HookType } from '../services/webhook/formats';
import type { GitHook } from '../services/webhook/git-hooks';
import { eventsArray } from '../services/webhook/hook-events';
import { contentTypeName, hookEvents, hookMeta } from '../services/webhook/hook-row';

export type ApiHook = {
  id: number;
  type: string;
  branch_filter: string;
  config: Record<string, string>;
  events: string[];
  authorization_header: string;
  active: boolean;
  updated_at: string;
  created_at: string;
};

/**
 * Gitea's ToHook. The secret is never shown; the Authorization header is, in the clear, as Gitea
 * shows it to whoever may manage the hook (every hooks route requires that).
 */
export function toApiHook(hook: Webhook, authorization: string): ApiHook {
  const settings = hookEvents(hook);
  return {
    id: hook.id,
    type: hook.type,
    branch_filter: settings.branch_filter,
    config: hookConfigView(hook.type as HookType, hook.url, contentTypeName(hook.content_type), hook.http_method, hookMeta(hook)),
    events: eventsArray(settings),
    authorization_header: authorization,
    active: hook.is_active === 1,
    updated_at: isoTime(hook.updated_unix),
    created_at: isoTime(hook.created_unix),
  };
}

export type ApiGitHook = { name: string; is_active: boolean; content: string };

/** Gitea's ToGitHook. */
export const toApiGitHook = (h: GitHook): ApiGitHook => ({ name: h.name, is_active: h.isActive, content: h.content });
