import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { AppError, NotFoundError } from '../../lib/errors';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { deleteSecret, listSecrets, putSecret } from '../../services/actions/secrets';
import { createVariable, deleteVariable, listVariables } from '../../services/actions/variables';
import { blockUser, listBlocked, unblockUser } from '../../services/user/blocks';
import { orgForOwner } from '../../services/web/org-settings';
import { doerOf } from '../context';
import { confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { sendPage, webUrl, when } from './layout';
import { orgPath, settingsNav } from './org-pages';
import { formOf, text, textArea } from './settings-layout';
import { webhookPages } from './webhook-forms';

// An organization's settings beside its profile: blocked users (block with a note, unblock) and
// the Actions secrets and variables of its repositories (add; delete through a confirmation
// page), through the services of /orgs/{org}/blocks and /orgs/{org}/actions/{secrets,variables}.

type Form = Record<string, unknown>;
const LIST_LIMIT = 100;
const scopeOf = (org: User) => ({ ownerId: org.id, repoId: 0 });
const orgOf = (req: Request) => orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);

/** A 409 (a name taken) is the form's error too. */
async function tried(action: () => Promise<unknown>): Promise<FieldErrors | null> {
  try {
    return await formAction(async () => { await action(); });
  } catch (err) {
    if (err instanceof AppError && err.status === 409) return { name: err.message };
    throw err;
  }
}

export function frame(req: Request, res: Response, org: User, tab: string, title: string, body: SafeHtml, status = 200): void {
  sendPage(req, res, {
    title: `${title} · ${org.name}`, status,
    body: html`<p><a href="${webUrl(req.ctx.config, encodePath(org.name))}">Back to ${org.name}</a></p><h1>${title}</h1>${settingsNav(req, org, tab)}${body}`,
  });
}

const inlinePost = (req: Request, res: Response, action: string, fields: Record<string, string>, label: string, name: string): SafeHtml =>
  html`<form class="inline" method="post" action="${action}">${csrfInput(req, res)}${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit" aria-label="${label} ${name}">${label}</button></form>`;

async function blockedPage(req: Request, res: Response, org: User, v: Form = {}, errors: FieldErrors | null = null): Promise<void> {
  const { users } = await listBlocked(req.ctx.db, org, { offset: 0, limit: LIST_LIMIT });
  const url = (rest: string) => webUrl(req.ctx.config, orgPath(org, `/settings/blocked_users${rest}`));
  const li = (u: User) => html`<li>${u.name} ${inlinePost(req, res, url('/unblock'), { blockee: u.name }, 'Unblock', u.name)}</li>`;
  frame(req, res, org, '/blocked_users', 'Blocked users', html`${formAlert(errors?.[''])}
<form class="stack" method="post" action="${url('/block')}">${csrfInput(req, res)}
${field({ name: 'blockee', label: 'User to block', value: text(v, 'blockee'), required: true }, errors ?? {})}${field({ name: 'note', label: 'Note (seen by owners only)', value: text(v, 'note') }, errors ?? {})}
${submitButton('Block user', 'danger')}</form>
${users.length ? html`<ul class="list">${users.map(li)}</ul>` : html`<p class="meta">Nobody is blocked.</p>`}`, errors ? 422 : 200);
}

/** GET /org/{org}/settings/blocked_users */
export const blockedUsers = async (req: Request, res: Response) => blockedPage(req, res, await orgOf(req));

/** POST /org/{org}/settings/blocked_users/{block|unblock} */
export async function blockPost(req: Request, res: Response): Promise<void> {
  if (req.params.action !== 'block' && req.params.action !== 'unblock') throw new NotFoundError();
  const org = await orgOf(req);
  const b = formOf(req);
  const name = text(b, 'blockee').trim();
  const errors = await tried(() => (req.params.action === 'block'
    ? blockUser(req.ctx.db, doerOf(req), org, name, text(b, 'note').slice(0, 255))
    : unblockUser(req.ctx.db, doerOf(req), org, name)));
  if (errors) return blockedPage(req, res, org, b, errors.name ? { '': errors.name } : errors);
  redirectAfterPost(req, res, orgPath(org, '/settings/blocked_users'));
}

type Kind = 'secrets' | 'variables';

async function actionsPage(req: Request, res: Response, org: User, kind: Kind, v: Form = {}, errors: FieldErrors | null = null): Promise<void> {
  const scope = scopeOf(org);
  const page = { offset: 0, limit: LIST_LIMIT };
  const rows = kind === 'secrets' ? (await listSecrets(req.ctx.db, scope, page)).rows : (await listVariables(req.ctx.db, scope, page)).rows;
  const url = (rest: string) => webUrl(req.ctx.config, orgPath(org, `/settings/actions/${kind}${rest}`));
  const row = (r: (typeof rows)[number]) => html`<tr><td><code>${r.name}</code></td><td>${kind === 'variables' ? r.data : '******'}</td><td>${r.description}</td><td>${when(r.created_unix)}</td>
<td><a href="${url(`/delete?name=${encodeURIComponent(r.name)}`)}" aria-label="Delete ${r.name}">Delete</a></td></tr>`;
  const title = kind === 'secrets' ? 'Actions secrets' : 'Actions variables';
  frame(req, res, org, `/actions/${kind}`, title, html`${formAlert(errors?.[''])}
<form class="stack" method="post" action="${url('')}">${csrfInput(req, res)}
${field({ name: 'name', label: 'Name', value: text(v, 'name'), required: true, hint: 'Letters, digits and underscores; not starting with GITHUB_ or GITEA_.' }, errors ?? {})}
${textArea({ name: 'data', label: kind === 'secrets' ? 'Secret value' : 'Value', value: kind === 'secrets' ? '' : text(v, 'data'), required: true, mono: true }, errors ?? {})}
${field({ name: 'description', label: 'Description', value: text(v, 'description') }, errors ?? {})}
${submitButton(kind === 'secrets' ? 'Add secret' : 'Add variable')}</form>
${rows.length ? html`<div class="scroll"><table class="list-table"><tr><th>Name</th><th>Value</th><th>Description</th><th>Added</th><th>Action</th></tr>${rows.map(row)}</table></div>` : html`<p class="meta">None yet.</p>`}`, errors ? 422 : 200);
}

function kindOf(req: Request): Kind {
  if (req.params.kind !== 'secrets' && req.params.kind !== 'variables') throw new NotFoundError();
  return req.params.kind;
}

/** GET /org/{org}/settings/actions/{secrets|variables} */
export const actionsSettings = async (req: Request, res: Response) => actionsPage(req, res, await orgOf(req), kindOf(req));

/** POST /org/{org}/settings/actions/{secrets|variables}: add (a secret of the same name is replaced). */
export async function actionsAdd(req: Request, res: Response): Promise<void> {
  const org = await orgOf(req);
  const b = formOf(req);
  const kind = kindOf(req);
  const name = text(b, 'name').trim();
  const input = { description: text(b, 'description').slice(0, 255) };
  const errors = await tried(() => (kind === 'secrets'
    ? putSecret(req.ctx.db, req.ctx.secret, scopeOf(org), name, { ...input, data: text(b, 'data') })
    : createVariable(req.ctx.db, scopeOf(org), name, { ...input, value: text(b, 'data') })));
  if (errors) return actionsPage(req, res, org, kind, b, errors);
  redirectAfterPost(req, res, orgPath(org, `/settings/actions/${kind}`));
}

/** GET /org/{org}/settings/actions/{kind}/delete?name= */
export async function actionsDeletePage(req: Request, res: Response): Promise<void> {
  const org = await orgOf(req);
  const kind = kindOf(req);
  const name = typeof req.query.name === 'string' ? req.query.name : '';
  const base = orgPath(org, `/settings/actions/${kind}`);
  confirmPage(req, res, {
    title: `Delete ${kind === 'secrets' ? 'secret' : 'variable'}`, message: html`<code>${name}</code> is deleted; workflows of ${org.name}'s repositories no longer get it.`,
    action: webUrl(req.ctx.config, `${base}/delete?name=${encodeURIComponent(name)}`), button: 'Delete', cancel: webUrl(req.ctx.config, base),
  });
}

/** POST /org/{org}/settings/actions/{kind}/delete?name= */
export async function actionsDelete(req: Request, res: Response): Promise<void> {
  const org = await orgOf(req);
  const kind = kindOf(req);
  const name = typeof req.query.name === 'string' ? req.query.name : '';
  await (kind === 'secrets' ? deleteSecret : deleteVariable)(req.ctx.db, scopeOf(org), name);
  redirectAfterPost(req, res, orgPath(org, `/settings/actions/${kind}`));
}

/** The organization's webhooks (webhook-forms.ts), framed by its settings. */
export const orgHooks = webhookPages(async (req) => {
  const org = await orgOf(req);
  return {
    scope: { ownerId: org.id }, base: orgPath(org, '/settings/hooks'),
    frame: (rq, rs, title, body, status) => frame(rq, rs, org, '/hooks', title, body, status),
  };
});
