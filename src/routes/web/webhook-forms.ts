import type { Request, RequestHandler, Response } from 'express';
import { toApiHook } from '../../convert/webhook';
import type { HookTask } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { html, raw, type SafeHtml } from '../../lib/html';
import { listDeliveries, redeliver } from '../../services/webhook/deliveries';
import { ALL_EVENTS } from '../../services/webhook/hook-events';
import { hookEvents } from '../../services/webhook/hook-row';
import { createHook, deleteHook, editHook, getHook, listHooks, type CreateHookInput, type HookScope, type HookView } from '../../services/webhook/hooks';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { selectField } from './admin-layout';
import { webUrl, when } from './layout';
import { formOf, radioGroup, text, texts } from './settings-layout';
import { get, post, type WebRoute } from './table';

// The webhook pages as a component any hook owner mounts: a list, the add and edit forms (type,
// target URL, method, content type, secret, Authorization header, which events, branch filter,
// active; for the site's hooks, system or default), delete through a confirmation page, and the
// edit page's recent deliveries with request and response and a redeliver button. The host says
// whose hooks they are (a HookScope of the webhooks service), where its pages live and how they
// are framed; an organization's settings and the site administration use it. hookRoutes lays
// out the paths of all three owners' hook pages, a repository's (with its test delivery) too.

type Form = Record<string, unknown>;
export type HookHost = {
  scope: HookScope;
  /** The list's path under root_url (no trailing slash); each hook at `${base}/{id}`. */
  base: string;
  frame: (req: Request, res: Response, title: string, body: SafeHtml, status?: number) => void;
  /** The site's hooks: system (every repository) or default (copied into new ones). */
  site?: boolean;
};
export type HostOf = (req: Request) => Promise<HookHost>;

const TYPES = ['gitea', 'gogs', 'discord', 'dingtalk', 'msteams', 'feishu', 'wechatwork'];
const DELIVERIES_SHOWN = 20;

function valuesOf(v: HookView): Form {
  const api = toApiHook(v.hook, v.authorization);
  const ev = hookEvents(v.hook);
  return {
    type: api.type, url: api.config.url ?? '', http_method: api.config.http_method ?? 'post', content_type: api.config.content_type ?? 'json',
    authorization_header: api.authorization_header, branch_filter: api.branch_filter, active: api.active ? 'on' : '',
    events_mode: ev.send_everything ? 'all' : ev.push_only ? 'push' : 'choose', events: api.events,
    is_system_webhook: v.hook.is_system_webhook ? 'on' : '',
  };
}

function hookForm(req: Request, res: Response, host: HookHost, action: string, v: Form, errors: FieldErrors, editing: boolean): SafeHtml {
  const chosen = texts(v, 'events');
  const opt = (value: string, label = value) => ({ value, label });
  return html`${formAlert(errors[''])}<form class="stack" method="post" action="${action}">${csrfInput(req, res)}
${editing ? '' : selectField('type', 'Type', TYPES.map((t) => opt(t)), text(v, 'type') || 'gitea', errors)}
${field({ name: 'url', label: 'Target URL', type: 'url', value: text(v, 'url'), required: true }, errors)}
${selectField('http_method', 'HTTP method', [opt('post', 'POST'), opt('get', 'GET')], text(v, 'http_method') || 'post', errors)}
${selectField('content_type', 'Content type', [opt('json', 'application/json'), opt('form', 'application/x-www-form-urlencoded')], text(v, 'content_type') || 'json', errors)}
${field({ name: 'secret', label: 'Secret', type: 'password', autocomplete: 'off', hint: editing ? 'Leave empty to keep the secret.' : 'Signs each payload (X-Gitea-Signature).' }, errors)}
${field({ name: 'authorization_header', label: 'Authorization header', value: text(v, 'authorization_header') }, errors)}
${radioGroup('events_mode', 'Trigger on', [opt('push', 'Push events'), opt('all', 'All events'), opt('choose', 'The events chosen below')], text(v, 'events_mode') || 'push', errors)}
<fieldset><legend>Events</legend><div class="choices">${ALL_EVENTS.map((e) => html`<label><input type="checkbox" name="events" value="${e}"${chosen.includes(e) ? raw(' checked') : ''}> ${e.replace(/_/g, ' ')}</label> `)}</div></fieldset>
${field({ name: 'branch_filter', label: 'Branch filter', value: text(v, 'branch_filter'), hint: 'A glob such as main or {main,release/*}; empty is every branch.' }, errors)}
${host.site && !editing ? checkbox('is_system_webhook', 'System webhook: fires for every repository (else a default webhook, copied into new repositories)', v.is_system_webhook === 'on') : ''}
${checkbox('active', 'Active', v.active === 'on')}
${submitButton(editing ? 'Update webhook' : 'Add webhook')}</form>`;
}

function inputOf(b: Form, editing: boolean): CreateHookInput {
  const mode = text(b, 'events_mode');
  const events = mode === 'all' ? [...ALL_EVENTS] : mode === 'choose' ? texts(b, 'events') : ['push'];
  const events_mode = mode === 'all' ? 'send_everything' : mode === 'choose' ? 'choose_events' : 'push_only';
  const config: Record<string, string> = { url: text(b, 'url').trim(), content_type: text(b, 'content_type') || 'json', http_method: text(b, 'http_method') || 'post' };
  if (text(b, 'secret')) config.secret = text(b, 'secret');
  if (!editing && b.is_system_webhook === 'on') config.is_system_webhook = 'true';
  return { type: text(b, 'type') || 'gitea', config, events, branch_filter: text(b, 'branch_filter').trim(), authorization_header: text(b, 'authorization_header'), active: b.active === 'on', events_mode };
}

const hookIdOf = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};

function deliveryItem(req: Request, res: Response, host: HookHost, hookId: number, t: HookTask): SafeHtml {
  const status = t.is_delivered ? (t.is_succeed ? `succeeded (${t.status_code})` : `failed (${t.status_code || 'no answer'})`) : 'pending';
  return html`<li><details><summary><code>${t.uuid}</code> ${t.event} · ${status} · ${when(t.created_unix)}${t.is_redelivery ? ' · redelivery' : ''}</summary>
<h3>Request</h3><pre class="code">${t.request_content || t.payload_content}</pre><h3>Response</h3><pre class="code">${t.response_content}</pre>
<form class="inline" method="post" action="${webUrl(req.ctx.config, `${host.base}/${hookId}/deliveries/${t.id}/redeliver`)}">${csrfInput(req, res)}<button type="submit">Redeliver</button></form></details></li>`;
}

/** The routes' handlers, over the host the request names. */
export function webhookPages(hostOf: HostOf) {
  const editPage = async (req: Request, res: Response, v: Form | null, errors: FieldErrors, status = 200) => {
    const host = await hostOf(req);
    const view = await getHook(req.ctx.db, req.ctx.secret, host.scope, hookIdOf(req));
    const { items } = await listDeliveries(req.ctx.db, view.hook, { offset: 0, limit: DELIVERIES_SHOWN });
    const url = webUrl(req.ctx.config, `${host.base}/${view.hook.id}`);
    host.frame(req, res, `Webhook ${view.hook.id}`, html`${hookForm(req, res, host, url, v ?? valuesOf(view), errors, true)}
<p><a class="button danger" href="${url}/delete">Delete webhook</a></p>
<h2 id="deliveries">Recent deliveries</h2>${items.length ? html`<ul class="list">${items.map((t) => deliveryItem(req, res, host, view.hook.id, t))}</ul>` : html`<p class="meta">None yet.</p>`}`, status);
  };
  return {
    async list(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      const { hooks } = await listHooks(req.ctx.db, req.ctx.secret, host.scope, { offset: 0, limit: 100 }, host.site ? 'all' : undefined);
      const row = ({ hook }: HookView) => html`<li><a href="${webUrl(req.ctx.config, `${host.base}/${hook.id}`)}">${hook.url}</a> <span class="badge">${hook.type}</span>${host.site ? html` <span class="badge">${hook.is_system_webhook ? 'System' : 'Default'}</span>` : ''}${hook.is_active ? '' : html` <span class="badge">Inactive</span>`}</li>`;
      host.frame(req, res, 'Webhooks', html`<p><a class="button primary" href="${webUrl(req.ctx.config, `${host.base}/new`)}">Add webhook</a></p>
${hooks.length ? html`<ul class="list">${hooks.map(row)}</ul>` : html`<p class="meta">No webhooks.</p>`}`);
    },
    async newForm(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      host.frame(req, res, 'Add webhook', hookForm(req, res, host, webUrl(req.ctx.config, `${host.base}/new`), { active: 'on', events_mode: 'push' }, {}, false));
    },
    async create(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      const b = formOf(req);
      let made: HookView | undefined;
      const errors = await formAction(async () => { made = await createHook(req.ctx.db, req.ctx.secret, host.scope, inputOf(b, false)); }, { 'config.url': 'url' });
      if (errors || !made) return host.frame(req, res, 'Add webhook', hookForm(req, res, host, webUrl(req.ctx.config, `${host.base}/new`), b, errors ?? {}, false), 422);
      redirectAfterPost(req, res, `${host.base}/${made.hook.id}`);
    },
    edit: (req: Request, res: Response) => editPage(req, res, null, {}),
    async save(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      const b = formOf(req);
      const { type: _type, ...input } = inputOf(b, true);
      const errors = await formAction(async () => { await editHook(req.ctx.db, req.ctx.secret, host.scope, hookIdOf(req), input); }, { 'config.url': 'url' });
      if (errors) return editPage(req, res, b, errors, 422);
      redirectAfterPost(req, res, `${host.base}/${hookIdOf(req)}`);
    },
    async deletePage(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      const view = await getHook(req.ctx.db, req.ctx.secret, host.scope, hookIdOf(req));
      const url = webUrl(req.ctx.config, `${host.base}/${view.hook.id}`);
      confirmPage(req, res, { title: 'Delete webhook', message: html`The webhook to <code>${view.hook.url}</code> and its deliveries are deleted.`, action: `${url}/delete`, button: 'Delete webhook', cancel: url });
    },
    async remove(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      await deleteHook(req.ctx.db, host.scope, hookIdOf(req));
      redirectAfterPost(req, res, host.base);
    },
    async redeliver(req: Request, res: Response): Promise<void> {
      const host = await hostOf(req);
      const view = await getHook(req.ctx.db, req.ctx.secret, host.scope, hookIdOf(req));
      await redeliver(req.ctx.h, view.hook, Number(req.params.delivery));
      redirectAfterPost(req, res, `${host.base}/${view.hook.id}`, 'deliveries');
    },
  };
}

/** A hook owner's page handlers: webhookPages' set, or a repository's own with its test delivery. */
export type HookHandlers = Record<'list' | 'newForm' | 'create' | 'edit' | 'save' | 'deletePage' | 'remove' | 'redeliver', RequestHandler> & {
  test?: RequestHandler;
};

/** The routes of a hook owner's webhook pages under `base` (an Express path), as Gitea lays them out. */
export const hookRoutes = (base: string, h: HookHandlers): WebRoute[] => [
  get(base, h.list),
  get(`${base}/new`, h.newForm),
  post(`${base}/new`, h.create),
  get(`${base}/:id`, h.edit),
  post(`${base}/:id`, h.save),
  ...(h.test ? [post(`${base}/:id/test`, h.test)] : []),
  post(`${base}/:id/deliveries/:delivery/redeliver`, h.redeliver),
  get(`${base}/:id/delete`, h.deletePage),
  post(`${base}/:id/delete`, h.remove),
];
