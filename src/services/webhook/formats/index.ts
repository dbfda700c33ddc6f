// Webhook formats: what each hook type sends for an event's Gitea payload JSON, and the
// type-specific `config` of the hooks API. Pure functions; the queue and the routes use them.

import { convert, type Convertor } from './convert';
import { defaultRequest } from './default';
import { dingtalkConvertor } from './dingtalk';
import { discordConvertor } from './discord';
import { feishuConvertor } from './feishu';
import { goJson } from './go-compat';
import { msteamsConvertor } from './msteams';
import { packagistPayload } from './packagist';
import { slackConvertor } from './slack';
import { telegramConvertor } from './telegram';
import type { HookEvent, HookRequest, HookTarget } from './types';
import { wechatworkConvertor } from './wechatwork';

export {
  HOOK_TYPES,
  type HookContentType, type HookEvent, type HookHttpMethod, type HookMeta, type HookRequest, type HookTarget,
  type HookType, type ParsedHookConfig,
} from './types';
export { hookConfigView, isValidHookUrl, parseHookConfig, parseHookType } from './config';

function chatConvertor(hook: HookTarget): Convertor<object> | null {
  switch (hook.type) {
    case 'slack': return slackConvertor(hook.meta);
    case 'discord': return discordConvertor(hook.meta);
    case 'dingtalk': return dingtalkConvertor;
    case 'telegram': return telegramConvertor;
    case 'msteams': return msteamsConvertor;
    case 'feishu': return feishuConvertor;
    case 'wechatwork': return wechatworkConvertor;
    default: return null;
  }
}

function chatBody(hook: HookTarget, event: HookEvent, payload: Record<string, unknown>): object | null {
  if (hook.type === 'packagist') return packagistPayload(hook.meta);
  const convertor = chatConvertor(hook);
  return convertor ? convert(convertor, event, payload) : null;
}

/**
 * The HTTP request a hook sends for an event, or null where Gitea sends nothing: a push without
 * commits to a non-gitea/gogs hook, an event the type cannot convert, an unusable method.
 * The gitea and gogs types send the payload itself; the others a message built from it.
 */
export function buildRequest(hook: HookTarget, event: HookEvent, payload: Record<string, unknown>): HookRequest | null {
  if (hook.type === 'gitea' || hook.type === 'gogs') return defaultRequest(hook, payload);
  // Gitea's prepareWebhook: chat services get no "0 new commits" message (a branch push without new commits).
  if (event === 'push' && !(Array.isArray(payload.commits) && payload.commits.length > 0)) return null;
  const body = chatBody(hook, event, payload);
  if (body === null) return null;
  const json = goJson(body);
  return {
    url: hook.url,
    method: hook.httpMethod || 'POST',
    body: json,
    contentType: 'application/json',
    signedBody: json,
    // Gitea posts to Packagist without its X-Gitea-*/X-Hub-* headers and signatures.
    defaultHeaders: hook.type !== 'packagist',
  };
}
