// The `config` map of CreateHookOption / EditHookOption and of the Hook answer, checked and
// shaped as Gitea's routers/api/v1/utils/hook.go (addHook, editHook) and ToHook do.

import { BadRequestError, InvalidError } from '../../../lib/errors';
import { isValidSlackChannel } from './slack';
import {
  HOOK_TYPES, type HookContentType, type HookMeta, type HookType, type ParsedHookConfig,
} from './types';

const CONTENT_TYPES: readonly string[] = ['json', 'form'];

// Settings Gitea's API ignores for these types but its web forms keep in the hook's meta;
// taken from `config` when given so API-made hooks can carry them too.
const META_KEYS: Partial<Record<HookType, readonly string[]>> = {
  discord: ['username', 'icon_url'],
  telegram: ['bot_token', 'chat_id', 'thread_id'],
  packagist: ['username', 'api_token', 'package_url'],
};

/** Gitea's IsValidHookTaskType, with its message (a 422). */
export function parseHookType(type: string): HookType {
  if (!(HOOK_TYPES as readonly string[]).includes(type)) throw new InvalidError(`Invalid hook type: ${type}`, 'type');
  return type as HookType;
}

/** Gitea's validation.IsValidURL: an absolute http(s) URL. */
export function isValidHookUrl(raw: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(raw) || raw !== raw.trim()) return false;
  try {
    const { protocol } = new URL(raw);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function checkUrl(url: string): string {
  if (!isValidHookUrl(url)) throw new InvalidError('Invalid url', 'config');
  return url;
}

function checkContentType(name: string): HookContentType {
  if (!CONTENT_TYPES.includes(name)) throw new InvalidError('Invalid content type', 'config');
  return name as HookContentType;
}

function has(config: Record<string, string>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(config, key) && typeof config[key] === 'string';
}

function pickMeta(type: HookType, config: Record<string, string>): HookMeta {
  const meta: HookMeta = {};
  for (const key of META_KEYS[type] ?? []) if (has(config, key)) meta[key] = config[key];
  return meta;
}

function slackMeta(config: Record<string, string>, channel: string): HookMeta {
  return { channel, username: config.username ?? '', icon_url: config.icon_url ?? '', color: config.color ?? '' };
}

function createConfig(type: HookType, config: Record<string, string>): ParsedHookConfig {
  for (const name of ['url', 'content_type']) {
    if (!has(config, name)) throw new InvalidError(`Missing config option: ${name}`, 'config');
  }
  const contentType = checkContentType(config.content_type);
  const url = checkUrl(config.url);
  if (type !== 'slack') return { url, contentType, httpMethod: 'POST', meta: pickMeta(type, config) };
  if (!has(config, 'channel')) throw new InvalidError('Missing config option: channel', 'config');
  const channel = config.channel.trim();
  // Gitea answers this one with a 400, not a 422.
  if (!isValidSlackChannel(channel)) throw new BadRequestError('Invalid slack channel name');
  return { url, contentType, httpMethod: 'POST', meta: slackMeta(config, channel) };
}

function editConfig(type: HookType, config: Record<string, string>, current: ParsedHookConfig): ParsedHookConfig {
  const url = has(config, 'url') ? checkUrl(config.url) : current.url;
  const contentType = has(config, 'content_type') ? checkContentType(config.content_type) : current.contentType;
  let meta: HookMeta;
  if (type === 'slack') {
    // As Gitea: a given channel replaces all four settings, unchecked; without one nothing changes.
    meta = has(config, 'channel') ? slackMeta(config, config.channel) : current.meta;
  } else {
    meta = { ...current.meta, ...pickMeta(type, config) };
  }
  return { url, contentType, httpMethod: current.httpMethod, meta };
}

/**
 * Checks a hook's `config` as Gitea's API does and answers what to store. Without `current` it is
 * CreateHookOption's (url and content_type required, method POST); with it, EditHookOption's,
 * where absent keys keep the current values. `secret` and `is_system_webhook` are left to the caller.
 */
export function parseHookConfig(type: HookType, config: Record<string, string>, current?: ParsedHookConfig): ParsedHookConfig {
  return current ? editConfig(type, config, current) : createConfig(type, config);
}

/**
 * The Hook answer's `config`, as Gitea's ToHook builds it: url and content_type, plus the
 * settings of a slack hook; keys in Go's map order. Tokens in meta are never shown.
 */
export function hookConfigView(type: HookType, url: string, contentType: HookContentType, _httpMethod: string,
  meta: HookMeta): Record<string, string> {
  if (type !== 'slack') return { content_type: contentType, url };
  return {
    channel: meta.channel ?? '', color: meta.color ?? '', content_type: contentType,
    icon_url: meta.icon_url ?? '', url, username: meta.username ?? '',
  };
}
