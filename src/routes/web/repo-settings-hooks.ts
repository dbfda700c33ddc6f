import type { Request, Response } from 'express';
import { toApiDeliveryDetail } from '../../convert/hook-delivery';
import type { HookTask } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { getDelivery, listDeliveries, redeliver, testHook } from '../../services/webhook/deliveries';
import type { HookType } from '../../services/webhook/formats';
import { createHook, deleteHook, editHook, getHook, listHooks, type HookScope } from '../../services/webhook/hooks';
// The API's schema module loads with the first save: it stays off the server's start-up path.
const apiHooks = () => import('../api/v1/hooks');
import { parseBody } from '../validate';
import { confirmPage, csrfInput, formAction, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { codeRegion, when } from './layout';
import { eventsModeOf, hookForm, hookOption, hookValues, isHookType, TYPE_LABELS, typeChoices } from './repo-settings-hook-form';
import { repoSettingsPage, selectField, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, text } from './settings-layout';

// /{owner}/{repo}/settings/hooks: the repository's webhooks; add one of any type the API takes,
// edit it, delete it, send a test delivery, and read each delivery's request and response with a
// button to send it again. Every form calls the service of the API's /repos/{o}/{r}/hooks routes.

type Form = Record<string, unknown>;

const scopeOf = (req: Request): HookScope => ({ repoId: repoOf(req).repo.id });
const hookId = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};
const hookPath = (req: Request, id: number, rest = '') => settingsLink(req, `hooks/${id}${rest ? `/${rest}` : ''}`);
// The config's errors are about its url (or content type): shown under the address.
const FIELDS = { config: 'url', type: 'url' };

/** GET /{owner}/{repo}/settings/hooks */
export async function hooksPage(req: Request, res: Response): Promise<void> {
  const { hooks } = await listHooks(req.ctx.db, req.ctx.secret, scopeOf(req), { offset: 0, limit: 100 });
  const rows = hooks.map(({ hook }) => html`<li><strong>${TYPE_LABELS[hook.type as HookType] ?? hook.type}</strong> <code>${hook.url}</code>
${hook.is_active ? '' : html` <span class="badge">Inactive</span>`}
<div class="row-actions"><a href="${hookPath(req, hook.id)}" aria-label="Edit webhook ${hook.id}">Edit</a> <a class="button danger" href="${hookPath(req, hook.id, 'delete')}" aria-label="Delete webhook ${hook.id}">Delete</a></div></li>`);
  repoSettingsPage(req, res, {
    tab: 'hooks', title: 'Webhooks',
    body: html`<p>Webhooks send a request to an address of yours when something happens in this repository.</p>
<form class="inline" method="get" action="${settingsLink(req, 'hooks/new')}">${selectField('type', 'Webhook type', typeChoices(), 'gitea')} ${submitButton('Add webhook', '')}</form>
${rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>No webhooks yet.</p>`}`,
  });
}

function newPage(req: Request, res: Response, type: HookType, values: Form = {}, errors: FieldErrors = {}): void {
  repoSettingsPage(req, res, {
    tab: 'hooks', title: `New ${TYPE_LABELS[type]} webhook`, status: Object.keys(errors).length ? 422 : 200,
    body: hookForm(req, res, { type, action: settingsLink(req, 'hooks/new'), values, errors, editing: false }),
  });
}

const typeOf = (v: unknown): HookType => {
  const t = typeof v === 'string' ? v : '';
  if (!isHookType(t)) throw new NotFoundError();
  return t;
};

/** GET /{owner}/{repo}/settings/hooks/new?type= */
export const newHookPage = (req: Request, res: Response): void => newPage(req, res, typeOf(req.query.type ?? 'gitea'), { content_type: 'json', events: 'push' });

/** POST /{owner}/{repo}/settings/hooks/new */
export async function createHookPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const type = typeOf(text(f, 'type'));
  let id = 0;
  const errors = await formAction(async () => {
    id = (await createHook(req.ctx.db, req.ctx.secret, scopeOf(req), { ...parseBody((await apiHooks()).createSchema, { type, ...hookOption(f, type) }), events_mode: eventsModeOf(f) })).hook.id;
  }, FIELDS);
  if (errors) return newPage(req, res, type, f, errors);
  res.redirect(303, `${hookPath(req, id)}?done=hook-added`);
}

function deliveryItem(req: Request, res: Response, hookId: number, t: HookTask): SafeHtml {
  const d = toApiDeliveryDetail(t);
  const headers = (h: unknown) => Object.entries((h ?? {}) as Record<string, unknown>).map(([k, v]) => `${k}: ${String(v)}`).join('\n');
  const status = t.is_delivered ? `${d.success ? 'Succeeded' : 'Failed'} · ${d.status_code}` : 'Waiting to be sent';
  return html`<li><details><summary><code>${t.uuid}</code> ${t.event} · ${status}${d.redelivery ? ' · redelivery' : ''}${t.delivered_unix ? html` · ${when(new Date(t.delivered_unix))}` : ''}</summary>
<h4>Request</h4>${codeRegion(`Request headers of delivery ${t.id}`, html`<pre>${d.request.http_method ? `${String(d.request.http_method)} ${String(d.request.url)}\n` : ''}${headers(d.request.headers)}</pre>`)}
${codeRegion(`Request body of delivery ${t.id}`, html`<pre>${String(d.request.body ?? '')}</pre>`)}
<h4>Response</h4>${d.response ? html`${codeRegion(`Response headers of delivery ${t.id}`, html`<pre>${headers(d.response.headers)}</pre>`)}
${codeRegion(`Response body of delivery ${t.id}`, html`<pre>${String(d.response.body ?? '')}</pre>`)}` : html`<p>No response yet.</p>`}
<form method="post" action="${hookPath(req, hookId, `deliveries/${t.id}/redeliver`)}">${csrfInput(req, res)}${submitButton('Redeliver', '')}</form></details></li>`;
}

async function editPage(req: Request, res: Response, values?: Form, errors: FieldErrors = {}): Promise<void> {
  const { hook, authorization } = await getHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req));
  const { items } = await listDeliveries(req.ctx.db, hook, { offset: 0, limit: 20 });
  const type = typeOf(hook.type);
  repoSettingsPage(req, res, {
    tab: 'hooks', title: `${TYPE_LABELS[type]} webhook`, status: Object.keys(errors).length ? 422 : 200,
    body: html`${hookForm(req, res, { type, action: hookPath(req, hook.id), values: values ?? hookValues(hook, authorization), errors, editing: true })}
<section id="deliveries" aria-labelledby="deliveries-h"><h3 id="deliveries-h">Recent deliveries</h3>
<form method="post" action="${hookPath(req, hook.id, 'test')}">${csrfInput(req, res)}${submitButton('Test delivery', '')}</form>
${items.length ? html`<ul class="list">${items.map((t) => deliveryItem(req, res, hook.id, t))}</ul>` : html`<p>Nothing delivered yet.</p>`}</section>`,
  });
}

/** GET /{owner}/{repo}/settings/hooks/{id} */
export const hookPage = (req: Request, res: Response): Promise<void> => editPage(req, res);

/** POST /{owner}/{repo}/settings/hooks/{id} */
export async function saveHookPost(req: Request, res: Response): Promise<void> {
  const { hook } = await getHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req));
  const f = formOf(req);
  const errors = await formAction(async () => {
    await editHook(req.ctx.db, req.ctx.secret, scopeOf(req), hook.id, { ...parseBody((await apiHooks()).editSchema, hookOption(f, typeOf(hook.type))), events_mode: eventsModeOf(f) });
  }, FIELDS);
  if (errors) return editPage(req, res, f, errors);
  res.redirect(303, `${hookPath(req, hook.id)}?done=hook-saved`);
}

/** POST /{owner}/{repo}/settings/hooks/{id}/test: a push of the default branch's head, whatever the events. */
export async function testHookPost(req: Request, res: Response): Promise<void> {
  const { hook } = await getHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req));
  await testHook(req.ctx.h, repoOf(req), hook, req.ctx.doer!);
  res.redirect(303, `${hookPath(req, hook.id)}?done=hook-tested#deliveries`);
}

/** POST /{owner}/{repo}/settings/hooks/{id}/deliveries/{delivery}/redeliver */
export async function redeliverPost(req: Request, res: Response): Promise<void> {
  const { hook } = await getHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req));
  const task = await getDelivery(req.ctx.db, hook, Number(req.params.delivery));
  await redeliver(req.ctx.h, hook, task.id);
  res.redirect(303, `${hookPath(req, hook.id)}?done=redelivered#deliveries`);
}

/** GET /{owner}/{repo}/settings/hooks/{id}/delete */
export async function deleteHookPage(req: Request, res: Response): Promise<void> {
  const { hook } = await getHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req));
  confirmPage(req, res, {
    title: 'Delete webhook', message: html`Deliveries to <code>${hook.url}</code> stop, and their history is deleted.`,
    action: hookPath(req, hook.id, 'delete'), button: 'Delete webhook', cancel: settingsLink(req, 'hooks'),
  });
}

/** POST /{owner}/{repo}/settings/hooks/{id}/delete */
export async function deleteHookPost(req: Request, res: Response): Promise<void> {
  await deleteHook(req.ctx.db, scopeOf(req), hookId(req));
  res.redirect(303, settingsDone(req, 'hooks', 'hook-deleted'));
}
