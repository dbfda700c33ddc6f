import type { Request, Response } from 'express';
import { avatarUrl } from '../../convert/user';
import { BlockedError } from '../../lib/errors';
import { html } from '../../lib/html';
import { ACCESS, type AccessMode } from '../../services/permissions';
import { addCollaborator, collaboratorsWithModes, removeCollaborator, type CollaboratorPermission } from '../../services/repo/collaborators';
import { confirmPage, csrfInput, field, formAction, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { repoSettingsPage, selectField, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, text } from './settings-layout';

// /{owner}/{repo}/settings/collaboration: the repository's collaborators with their permission
// (read, write, admin), a form to add one by user name, a select to change each, and removal
// through a confirmation page; every form calls the service of the API's collaborators routes.

const PERMISSIONS: [CollaboratorPermission, string][] = [['read', 'Read'], ['write', 'Write'], ['admin', 'Administrator']];
const nameOf = (mode: AccessMode): CollaboratorPermission => (mode >= ACCESS.admin ? 'admin' : mode >= ACCESS.write ? 'write' : 'read');
const permissionOf = (v: string): CollaboratorPermission => (PERMISSIONS.some(([p]) => p === v) ? v as CollaboratorPermission : 'write');

async function render(req: Request, res: Response, errors?: FieldErrors, status = 422): Promise<void> {
  const { config } = req.ctx;
  const rows = await collaboratorsWithModes(req.ctx.db, repoOf(req));
  const f = errors ? formOf(req) : {};
  const list = rows.length
    ? html`<ul class="list">${rows.map(({ user, mode }) => html`<li><img class="avatar" src="${avatarUrl(config, user)}" alt="" width="20" height="20"> <strong>${user.name}</strong>
<form class="inline" method="post" action="${settingsLink(req, 'collaboration/permission')}">${csrfInput(req, res)}<input type="hidden" name="collaborator" value="${user.name}">
${selectField('permission', `Permission of ${user.name}`, PERMISSIONS, nameOf(mode), {}, `perm-${user.id}`)} ${submitButton('Change', '')}</form>
<a class="button danger" href="${settingsLink(req, `collaboration/delete?collaborator=${encodeURIComponent(user.name)}`)}" aria-label="Remove ${user.name}">Remove</a></li>`)}</ul>`
    : html`<p>No collaborators yet.</p>`;
  repoSettingsPage(req, res, {
    tab: 'collaboration', title: 'Collaborators', status: errors ? status : 200,
    body: html`${list}<section id="add" aria-labelledby="add-h"><h3 id="add-h">Add a collaborator</h3>${formAlert(errors?.[''])}
<form class="stack" method="post" action="${settingsLink(req, 'collaboration')}">${csrfInput(req, res)}
${field({ name: 'collaborator', label: 'User name', value: text(f, 'collaborator'), required: true }, errors)}
${selectField('permission', 'Permission', PERMISSIONS, text(f, 'permission') || 'write', errors)}
${submitButton('Add collaborator')}</form></section>`,
  });
}

/** GET /{owner}/{repo}/settings/collaboration */
export const collaboratorsPage = (req: Request, res: Response): Promise<void> => render(req, res);

/**
 * The add (or change) through the API's service: its refusals as the form's errors. A user the
 * owner blocked, or who blocked the owner, is the API's refusal (403, its message) beside the
 * name typed, not the 403 error page; other refusals re-render 422.
 */
async function addOrChange(req: Request, res: Response, name: string, done: string): Promise<void> {
  const permission = permissionOf(text(formOf(req), 'permission'));
  try {
    const errors = await formAction(() => addCollaborator(req.ctx.db, repoOf(req), name, permission));
    if (errors) return render(req, res, errors);
  } catch (err) {
    if (err instanceof BlockedError) return render(req, res, { collaborator: err.message }, err.status);
    throw err;
  }
  res.redirect(303, settingsDone(req, 'collaboration', done));
}

/** POST /{owner}/{repo}/settings/collaboration: add (or change) a collaborator; 422 for a user that cannot be one. */
export async function addPost(req: Request, res: Response): Promise<void> {
  const name = text(formOf(req), 'collaborator').trim();
  if (!name) return render(req, res, { collaborator: 'Name the user to add.' });
  return addOrChange(req, res, name, 'collaborator-added');
}

/** POST /{owner}/{repo}/settings/collaboration/permission */
export const permissionPost = (req: Request, res: Response): Promise<void> =>
  addOrChange(req, res, text(formOf(req), 'collaborator'), 'collaborator-changed');

/** GET /{owner}/{repo}/settings/collaboration/delete?collaborator= */
export function removeForm(req: Request, res: Response): void {
  const name = typeof req.query.collaborator === 'string' ? req.query.collaborator : '';
  confirmPage(req, res, {
    title: 'Remove collaborator', message: html`<strong>${name}</strong> loses the access given to them here.`,
    action: `${settingsLink(req, 'collaboration/delete')}?collaborator=${encodeURIComponent(name)}`, button: 'Remove collaborator', cancel: settingsLink(req, 'collaboration'),
  });
}

/** POST /{owner}/{repo}/settings/collaboration/delete?collaborator= */
export async function removePost(req: Request, res: Response): Promise<void> {
  const name = typeof req.query.collaborator === 'string' ? req.query.collaborator : text(formOf(req), 'collaborator');
  await removeCollaborator(req.ctx.db, repoOf(req), name);
  res.redirect(303, settingsDone(req, 'collaboration', 'collaborator-removed'));
}
