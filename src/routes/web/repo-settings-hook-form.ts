import type { Request, Response } from 'express';
import type { Webhook } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import { HOOK_TYPES, type HookType } from '../../services/webhook/formats';
import type { EventsMode } from '../../services/webhook/hook-events';
import { contentTypeName, hookEvents, hookMeta } from '../../services/webhook/hook-row';
import { checkbox, csrfInput, field, formAlert, submitButton, type FieldErrors } from './forms';
import { selectField } from './repo-settings-layout';
import { radioGroup, text } from './settings-layout';

// The form of a repository webhook (new or edit), and the form read back into the API's
// CreateHookOption / EditHookOption: url, content type, secret, the type's own settings
// (Slack's channel, Telegram's chat...), the events (everything, push only, or chosen ones),
// branch filter, Authorization header, active.

type Form = Record<string, unknown>;

export const TYPE_LABELS: Record<HookType, string> = {
  gitea: 'Gitea', gogs: 'Gogs', slack: 'Slack', discord: 'Discord', dingtalk: 'DingTalk', telegram: 'Telegram',
  msteams: 'Microsoft Teams', feishu: 'Feishu', wechatwork: 'WeCom', packagist: 'Packagist',
};
export const isHookType = (t: string): t is HookType => (HOOK_TYPES as readonly string[]).includes(t);

/** The type's own settings, as the API's config keys. */
const META_FIELDS: Partial<Record<HookType, [string, string][]>> = {
  slack: [['channel', 'Channel'], ['username', 'User name'], ['icon_url', 'Icon URL'], ['color', 'Colour']],
  discord: [['username', 'User name'], ['icon_url', 'Icon URL']],
  telegram: [['bot_token', 'Bot token'], ['chat_id', 'Chat id'], ['thread_id', 'Thread id']],
  packagist: [['username', 'User name'], ['api_token', 'API token'], ['package_url', 'Package URL']],
};
/** Tokens are never shown back. */
const SECRET_META = new Set(['bot_token', 'api_token']);

/** The chosen events, by the API's option names, grouped as Gitea's form groups them. */
const EVENTS: [string, string, string][] = [
  ['create', 'Branch or tag created', 'Repository'], ['delete', 'Branch or tag deleted', 'Repository'], ['fork', 'Forked', 'Repository'],
  ['push', 'Push', 'Repository'], ['repository', 'Repository created or deleted', 'Repository'], ['release', 'Release', 'Repository'],
  ['package', 'Package', 'Repository'], ['wiki', 'Wiki', 'Repository'], ['status', 'Commit status', 'Repository'],
  ['issues_only', 'Issue opened, closed, edited', 'Issues'], ['issue_assign', 'Issue assigned', 'Issues'], ['issue_label', 'Issue labelled', 'Issues'],
  ['issue_milestone', 'Issue milestoned', 'Issues'], ['issue_comment', 'Issue comment', 'Issues'],
  ['pull_request_only', 'Pull request opened, closed, edited', 'Pull requests'], ['pull_request_assign', 'Pull request assigned', 'Pull requests'],
  ['pull_request_label', 'Pull request labelled', 'Pull requests'], ['pull_request_milestone', 'Pull request milestoned', 'Pull requests'],
  ['pull_request_comment', 'Pull request comment', 'Pull requests'], ['pull_request_review', 'Pull request reviewed', 'Pull requests'],
  ['pull_request_sync', 'Pull request synchronized', 'Pull requests'], ['pull_request_review_request', 'Review requested', 'Pull requests'],
  ['workflow_run', 'Workflow run', 'Actions'], ['workflow_job', 'Workflow job', 'Actions'],
];
// The stored keys whose option name differs.
const OPTION_OF: Record<string, string> = { issues: 'issues_only', pull_request: 'pull_request_only' };

/** A stored hook as the form's values. */
export function hookValues(hook: Webhook, authorization: string): Form {
  const ev = hookEvents(hook);
  const v: Form = {
    url: hook.url, content_type: contentTypeName(hook.content_type), branch_filter: ev.branch_filter, authorization_header: authorization,
    active: hook.is_active ? 'on' : '', events: ev.send_everything ? 'all' : ev.push_only ? 'push' : 'choose',
  };
  for (const [key, wanted] of Object.entries(ev.events)) if (wanted) v[`event_${OPTION_OF[key] ?? key}`] = 'on';
  for (const [k, val] of Object.entries(hookMeta(hook))) if (!SECRET_META.has(k)) v[k] = val;
  return v;
}

export function hookForm(req: Request, res: Response, o: { type: HookType; action: string; values: Form; errors: FieldErrors; editing: boolean }): SafeHtml {
  const { values: v, errors: e } = o;
  const groups = [...new Set(EVENTS.map(([, , g]) => g))];
  const chosen = groups.map((g) => html`<fieldset class="field"><legend>${g}</legend>${EVENTS.filter(([, , eg]) => eg === g).map(([name, label]) => checkbox(`event_${name}`, label, text(v, `event_${name}`) === 'on'))}</fieldset>`);
  return html`${formAlert(e[''])}<form class="stack" method="post" action="${o.action}">${csrfInput(req, res)}<input type="hidden" name="type" value="${o.type}">
${field({ name: 'url', label: 'Target URL', type: 'url', value: text(v, 'url'), required: true }, e)}
${o.type === 'gitea' || o.type === 'gogs' ? selectField('content_type', 'Content type', [['json', 'application/json'], ['form', 'application/x-www-form-urlencoded']], text(v, 'content_type') || 'json', e) : ''}
${field({ name: 'secret', label: 'Secret', type: 'password', autocomplete: 'new-password', hint: o.editing ? 'Left empty, the secret stays as it is.' : 'Signs each delivery (X-Gitea-Signature).' }, e)}
${(META_FIELDS[o.type] ?? []).map(([k, l]) => field({ name: k, label: l, type: SECRET_META.has(k) ? 'password' : 'text', value: text(v, k) }, e))}
${radioGroup('events', 'Trigger on', [
    { value: 'push', label: 'Push events' }, { value: 'all', label: 'All events' }, { value: 'choose', label: 'The events chosen below' },
  ], text(v, 'events') || 'push', e)}
<details${text(v, 'events') === 'choose' ? html` open` : ''}><summary>Events to choose from</summary>${chosen}</details>
${field({ name: 'branch_filter', label: 'Branch filter', value: text(v, 'branch_filter'), hint: 'A glob of branch names for push, create and delete events: *, main, {main,release/*}' }, e)}
${field({ name: 'authorization_header', label: 'Authorization header', value: text(v, 'authorization_header'), hint: 'Sent with each delivery, e.g. Bearer token' }, e)}
${checkbox('active', 'Active: deliveries are sent', o.editing ? text(v, 'active') === 'on' : v.active === undefined || text(v, 'active') === 'on')}
${submitButton(o.editing ? 'Save webhook' : 'Add webhook')}</form>`;
}

/** The form as the API's hook option (`config` with the type's settings; the secret only when typed). */
export function hookOption(f: Form, type: HookType): { config: Record<string, string>; events: string[]; branch_filter: string; authorization_header: string; active: boolean } {
  const config: Record<string, string> = { url: text(f, 'url').trim(), content_type: text(f, 'content_type') || 'json' };
  if (text(f, 'secret')) config.secret = text(f, 'secret');
  for (const [k] of META_FIELDS[type] ?? []) if (text(f, k) || !SECRET_META.has(k)) config[k] = text(f, k);
  const mode = text(f, 'events');
  const all = EVENTS.map(([n]) => (n === 'issues_only' ? 'issues' : n === 'pull_request_only' ? 'pull_request' : n));
  const events = mode === 'all' ? all : mode === 'choose' ? EVENTS.map(([n]) => n).filter((n) => text(f, `event_${n}`) === 'on') : ['push'];
  return { config, events, branch_filter: text(f, 'branch_filter').trim(), authorization_header: text(f, 'authorization_header'), active: text(f, 'active') === 'on' };
}

/** The form's trigger choice as the hooks service stores it (Gitea's push_only/send_everything/choose_events). */
export const eventsModeOf = (f: Form): EventsMode => {
  const mode = text(f, 'events');
  return mode === 'all' ? 'send_everything' : mode === 'choose' ? 'choose_events' : 'push_only';
};

export const typeChoices = (): [string, string][] => HOOK_TYPES.map((t) => [t, TYPE_LABELS[t]]);
