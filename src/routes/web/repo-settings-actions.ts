import type { Request, Response } from 'express';
import { html } from '../../lib/html';
import { deleteSecret, listSecrets, putSecret } from '../../services/actions/secrets';
import { createVariable, deleteVariable, getVariable, listVariables, updateVariable } from '../../services/actions/variables';
import type { ActionsScope } from '../../services/actions/secrets';
// The API's schema module loads with the first save: it stays off the server's start-up path.
const apiActions = () => import('../api/v1/actions-settings');
import { parseBody } from '../validate';
import { confirmPage, csrfInput, field, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { when } from './layout';
import { repoSettingsPage, settingsAction, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, text, textArea } from './settings-layout';

// /{owner}/{repo}/settings/actions: the repository's Actions secrets (names and dates only: a
// value is written, never shown) and variables (added, edited in place with ?edit=, deleted),
// through the services and schemas of the API's .../actions/secrets and .../actions/variables.

type Form = Record<string, unknown>;
type Posted = { form: 'secret' | 'variable' | 'edit'; errors: FieldErrors };

const scopeOf = (req: Request): ActionsScope => ({ ownerId: 0, repoId: repoOf(req).repo.id });
const ALL = { offset: 0, limit: 200 };
const nameQuery = (req: Request) => (typeof req.query.name === 'string' ? req.query.name : '');

async function view(req: Request, res: Response, posted?: Posted): Promise<void> {
  const [{ rows: secrets }, { rows: variables }] = await Promise.all([listSecrets(req.ctx.db, scopeOf(req), ALL), listVariables(req.ctx.db, scopeOf(req), ALL)]);
  const f: Form = posted ? formOf(req) : {};
  const errs = (form: Posted['form']) => (posted?.form === form ? posted.errors : {});
  const vals = (form: Posted['form']) => (posted?.form === form ? f : {});
  const editing = posted?.form === 'edit' ? text(f, 'old_name') : typeof req.query.edit === 'string' ? req.query.edit : '';
  const variableRow = (v: (typeof variables)[number]) => {
    if (v.name !== editing) {
      return html`<li><strong><code>${v.name}</code></strong> <span class="meta">${v.description}</span><div class="meta"><code>${v.data}</code></div>
<div class="row-actions"><a href="${settingsLink(req, `actions?edit=${encodeURIComponent(v.name)}#variables`)}" aria-label="Edit variable ${v.name}">Edit</a> <a class="button danger" href="${settingsLink(req, `actions/variables/delete?name=${encodeURIComponent(v.name)}`)}" aria-label="Delete variable ${v.name}">Delete</a></div></li>`;
    }
    const e = errs('edit');
    const values = posted?.form === 'edit' ? f : { name: v.name, value: v.data, description: v.description };
    return html`<li>${formAlert(e[''])}<form class="stack" method="post" action="${settingsLink(req, 'actions/variables/edit')}">${csrfInput(req, res)}<input type="hidden" name="old_name" value="${v.name}">
${field({ name: 'name', id: 'edit-var-name', label: 'Name', value: text(values, 'name'), required: true }, e)}
${textArea({ name: 'value', id: 'edit-var-value', label: 'Value', value: text(values, 'value'), required: true, mono: true }, e)}
${field({ name: 'description', id: 'edit-var-description', label: 'Description', value: text(values, 'description') }, e)}
${submitButton('Save variable')} <a class="button" href="${settingsLink(req, 'actions')}">Cancel</a></form></li>`;
  };
  repoSettingsPage(req, res, {
    tab: 'actions', title: 'Actions secrets and variables', status: posted ? 422 : 200,
    body: html`<section id="secrets" aria-labelledby="secrets-h"><h3 id="secrets-h">Secrets</h3>
${secrets.length ? html`<ul class="list">${secrets.map((s) => html`<li><strong><code>${s.name}</code></strong> <span class="meta">${s.description} · added ${when(s.created_unix)}</span>
<div class="row-actions"><a class="button danger" href="${settingsLink(req, `actions/secrets/delete?name=${encodeURIComponent(s.name)}`)}" aria-label="Delete secret ${s.name}">Delete</a></div></li>`)}</ul>` : html`<p>No secrets.</p>`}
${formAlert(errs('secret')[''])}<form class="stack" method="post" action="${settingsLink(req, 'actions/secrets')}">${csrfInput(req, res)}
${field({ name: 'name', id: 'secret-name', label: 'Secret name', value: text(vals('secret'), 'name'), required: true, hint: 'Letters, digits and _; not starting with GITHUB_ or GITEA_. An existing name is replaced.' }, errs('secret'))}
${textArea({ name: 'data', id: 'secret-data', label: 'Secret value', required: true, mono: true }, errs('secret'))}
${field({ name: 'description', id: 'secret-description', label: 'Description', value: text(vals('secret'), 'description') }, errs('secret'))}
${submitButton('Save secret')}</form></section>
<section id="variables" aria-labelledby="variables-h"><h3 id="variables-h">Variables</h3>
${variables.length ? html`<ul class="list">${variables.map(variableRow)}</ul>` : html`<p>No variables.</p>`}
${formAlert(errs('variable')[''])}<form class="stack" method="post" action="${settingsLink(req, 'actions/variables')}">${csrfInput(req, res)}
${field({ name: 'name', id: 'var-name', label: 'Variable name', value: text(vals('variable'), 'name'), required: true }, errs('variable'))}
${textArea({ name: 'value', id: 'var-value', label: 'Variable value', value: text(vals('variable'), 'value'), required: true, mono: true }, errs('variable'))}
${field({ name: 'description', id: 'var-description', label: 'Description', value: text(vals('variable'), 'description') }, errs('variable'))}
${submitButton('Add variable')}</form></section>`,
  });
}

/** GET /{owner}/{repo}/settings/actions */
export const actionsPage = (req: Request, res: Response): Promise<void> => view(req, res);

// The services name a bad name `name` (or refuse it with a 400); the schemas name `data` and `value`.
const FIELDS = { secretname: 'name', variablename: 'name' };

/** POST /{owner}/{repo}/settings/actions/secrets: add or replace. */
export async function secretPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const { secretSchema } = await apiActions();
  const errors = await settingsAction(async () => putSecret(req.ctx.db, req.ctx.secret, scopeOf(req), text(f, 'name').trim(),
    parseBody(secretSchema, { data: text(f, 'data'), description: text(f, 'description') })), FIELDS, 'name');
  if (errors) return view(req, res, { form: 'secret', errors });
  res.redirect(303, settingsDone(req, 'actions', 'secret-saved'));
}

/** POST /{owner}/{repo}/settings/actions/variables */
export async function variablePost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const { createVariableSchema } = await apiActions();
  const errors = await settingsAction(async () => createVariable(req.ctx.db, scopeOf(req), text(f, 'name').trim(),
    parseBody(createVariableSchema, { value: text(f, 'value'), description: text(f, 'description') })), FIELDS, 'name');
  if (errors) return view(req, res, { form: 'variable', errors });
  res.redirect(303, settingsDone(req, 'actions', 'variable-saved'));
}

/** POST /{owner}/{repo}/settings/actions/variables/edit: value, description, and a new name. */
export async function variableEditPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  await getVariable(req.ctx.db, scopeOf(req), text(f, 'old_name'));
  const { updateVariableSchema } = await apiActions();
  const errors = await settingsAction(async () => updateVariable(req.ctx.db, scopeOf(req), text(f, 'old_name'),
    parseBody(updateVariableSchema, { value: text(f, 'value'), description: text(f, 'description'), name: text(f, 'name').trim() })), FIELDS, 'name');
  if (errors) return view(req, res, { form: 'edit', errors });
  res.redirect(303, settingsDone(req, 'actions', 'variable-saved'));
}

/** GET /{owner}/{repo}/settings/actions/{secrets|variables}/delete?name= */
export async function deleteConfirm(req: Request, res: Response): Promise<void> {
  const kind = req.path.includes('/secrets/') ? 'secret' : 'variable';
  const name = nameQuery(req);
  if (kind === 'variable') await getVariable(req.ctx.db, scopeOf(req), name);
  confirmPage(req, res, {
    title: `Delete ${kind}`, message: html`Workflows no longer get the ${kind} <code>${name}</code>.`,
    action: `${settingsLink(req, `actions/${kind}s/delete`)}?name=${encodeURIComponent(name)}`, button: `Delete ${kind}`, cancel: settingsLink(req, 'actions'),
  });
}

/** POST /{owner}/{repo}/settings/actions/{secrets|variables}/delete?name= */
export async function deletePost(req: Request, res: Response): Promise<void> {
  const secret = req.path.includes('/secrets/');
  if (secret) await deleteSecret(req.ctx.db, scopeOf(req), nameQuery(req));
  else await deleteVariable(req.ctx.db, scopeOf(req), nameQuery(req));
  res.redirect(303, settingsDone(req, 'actions', secret ? 'secret-deleted' : 'variable-deleted'));
}
