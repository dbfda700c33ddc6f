// Shared types of the webhook formats; index.ts re-exports them so callers import one module.

export const HOOK_TYPES = [
  'gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'wechatwork', 'packagist',
] as const;
export type HookType = typeof HOOK_TYPES[number];

/** Gitea's webhook_module.HookEventType values. */
export type HookEvent =
  | 'create' | 'delete' | 'fork' | 'push'
  | 'issues' | 'issue_assign' | 'issue_label' | 'issue_milestone' | 'issue_comment'
  | 'pull_request' | 'pull_request_assign' | 'pull_request_label' | 'pull_request_milestone'
  | 'pull_request_comment' | 'pull_request_review_approved' | 'pull_request_review_rejected'
  | 'pull_request_review_comment' | 'pull_request_sync' | 'pull_request_review_request'
  | 'repository' | 'release' | 'status' | 'wiki' | 'package' | 'workflow_run' | 'workflow_job';

/**
 * The type-specific settings kept with a hook: slack channel/username/icon_url/color,
 * discord username/icon_url, telegram bot_token/chat_id/thread_id, packagist username/api_token/package_url.
 */
export type HookMeta = Record<string, string>;

export type HookContentType = 'json' | 'form';
export type HookHttpMethod = 'POST' | 'GET' | 'PUT';

/** What parseHookConfig keeps of CreateHookOption.config / EditHookOption.config. */
export interface ParsedHookConfig {
  url: string;
  contentType: HookContentType;
  httpMethod: HookHttpMethod;
  meta: HookMeta;
}

export interface HookTarget {
  type: HookType;
  url: string;
  httpMethod: string;
  contentType: HookContentType;
  meta: HookMeta;
}

/**
 * One delivery. `body` is '' and `contentType` '' for GET (Gitea sets no Content-Type then).
 * `signedBody` is what Gitea's X-Gitea-Signature / X-Hub-Signature* HMACs cover and what it records
 * as the request body in the delivery history: the JSON payload for gitea/gogs (even when sent as a
 * form or in the query), the request body for the chat types.
 * `defaultHeaders` is false where Gitea adds none of its X-Gitea-*, X-Gogs-*, X-GitHub-*, X-Hub-* headers (packagist).
 */
export type HookRequest = {
  url: string;
  method: string;
  body: string;
  contentType: string;
  signedBody: string;
  defaultHeaders: boolean;
};
