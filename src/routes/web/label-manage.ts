import type { Request, Response } from 'express';
import type { Label } from '../../db/schema';
import { ForbiddenError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { listLabelTemplates } from '../../lib/label-templates';
import { createRepoLabel, deleteRepoLabel, editRepoLabel, getRepoLabel, initializeRepoLabels } from '../../services/issue/repo-labels';
import { labelsPage } from '../../services/web/issue-pages-meta';
import { mayManageLabels } from '../../services/web/manage-rights';
import { queryString } from '../query';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf, unitsOf } from './guards';
import { text } from './issue-actions';
import { labelsBody } from './issue-pages-html';
import { indexParam } from './issue-view-pages';
import { pageColour, repoHeader, repoLink, sendPage } from './layout';

// The labels page with its writers' forms: a new label, each label's edit form in place
// (`?edit=<id>`, no script), delete through a confirmation page, and for a repository without
// labels a label set from the shipped templates. Each form calls the API's label service.

type Posted = { key: string; values: Record<string, string>; errors: FieldErrors };

const path = (req: Request, rest: string) => repoLink(req.ctx.config, repoOf(req), rest);

function labelFields(key: string, v: Record<string, string>, errors: FieldErrors): SafeHtml {
  return html`${field({ name: 'name', id: `${key}-name`, label: 'Name', value: v.name, required: true }, errors)}
${field({ name: 'color', id: `${key}-color`, label: 'Colour', type: 'color', value: v.color || '#2b7489' }, errors)}
${field({ name: 'description', id: `${key}-description`, label: 'Description', value: v.description }, errors)}
${checkbox('exclusive', 'Exclusive (scoped: one label of its scope per issue)', v.exclusive === 'on')}${checkbox('archived', 'Archived', v.archived === 'on')}`;
}

const valuesOf = (l: Label): Record<string, string> => ({
  name: l.name, color: `#${l.color.replace(/^#/, '')}`, description: l.description, exclusive: l.exclusive ? 'on' : '', archived: l.is_archived ? 'on' : '',
});

function editForm(req: Request, res: Response, l: Label, posted?: Posted): SafeHtml {
  const mine = posted?.key === String(l.id) ? posted : undefined;
  return html`<form class="stack" method="post" action="${path(req, `labels/${l.id}/edit`)}">${formAlert(mine?.errors[''])}${csrfInput(req, res)}
${labelFields(`edit-${l.id}`, mine?.values ?? valuesOf(l), mine?.errors ?? {})}${submitButton('Save')} <a class="button" href="${path(req, 'labels')}">Cancel</a></form>`;
}

function manageRow(req: Request, res: Response, posted?: Posted) {
  const editing = posted?.key ?? queryString(req, 'edit');
  return (l: Label): SafeHtml => (String(l.id) === editing
    ? editForm(req, res, l, posted)
    : html`<div class="row-actions"><a href="${path(req, `labels?edit=${l.id}`)}" aria-label="Edit ${l.name}">Edit</a> <a href="${path(req, `labels/${l.id}/delete`)}" aria-label="Delete ${l.name}">Delete</a></div>`);
}

function templatesForm(req: Request, res: Response): SafeHtml {
  return html`<form class="inline" method="post" action="${path(req, 'labels/initialize')}">${csrfInput(req, res)}
<label for="label-set">Start from a label set</label><select id="label-set" name="template">${listLabelTemplates().map((t) => html`<option>${t}</option>`)}</select> ${submitButton('Add these labels', '')}</form>`;
}

async function render(req: Request, res: Response, posted?: Posted): Promise<void> {
  const { db, config, doer } = req.ctx;
  const access = repoOf(req);
  const [page, writer] = await Promise.all([labelsPage(db, access), mayManageLabels(db, access, doer)]);
  const v = { config, access, colour: (hex: string) => pageColour(res, hex) };
  const fresh = posted?.key === 'new' ? posted : undefined;
  const create = writer
    ? html`<details class="box"${fresh ? html` open` : ''}><summary>New label</summary><form class="stack" method="post" action="${path(req, 'labels/new')}">${formAlert(fresh?.errors[''])}${csrfInput(req, res)}
${labelFields('new', fresh?.values ?? {}, fresh?.errors ?? {})}${submitButton('Create label')}</form></details>${page.repo.length ? '' : templatesForm(req, res)}`
    : '';
  sendPage(req, res, {
    title: `Labels · ${access.owner.name}/${access.repo.name}`, status: posted ? 422 : 200,
    body: html`${repoHeader(config, access, unitsOf(res), 'labels')}${posted?.key === 'set' ? formAlert(posted.errors['']) : ''}${create}
${labelsBody(v, unitsOf(res), page, writer ? manageRow(req, res, posted) : undefined)}`,
  });
}

/** GET /{owner}/{repo}/labels */
export const labelsManagePage = (req: Request, res: Response): Promise<void> => render(req, res);

const inputOf = (req: Request) => ({
  name: text(req, 'name').trim(), color: text(req, 'color'), description: text(req, 'description'),
  exclusive: text(req, 'exclusive') === 'on', is_archived: text(req, 'archived') === 'on',
});
const postedValues = (req: Request): Record<string, string> => ({
  name: text(req, 'name'), color: text(req, 'color'), description: text(req, 'description'), exclusive: text(req, 'exclusive'), archived: text(req, 'archived'),
});

async function answer(req: Request, res: Response, key: string, action: () => Promise<unknown>): Promise<void> {
  const errors = await formAction(async () => { await action(); });
  if (errors) return render(req, res, { key, values: postedValues(req), errors });
  res.redirect(303, path(req, 'labels'));
}

/** POST /{owner}/{repo}/labels/new */
export const labelCreate = (req: Request, res: Response) =>
  answer(req, res, 'new', () => createRepoLabel(req.ctx.db, repoOf(req), req.ctx.doer!, inputOf(req)));

/** POST /{owner}/{repo}/labels/{id}/edit */
export async function labelEdit(req: Request, res: Response): Promise<void> {
  const id = indexParam(req, 'id');
  await answer(req, res, String(id), () => editRepoLabel(req.ctx.db, repoOf(req), req.ctx.doer!, String(id), inputOf(req)));
}

/** POST /{owner}/{repo}/labels/initialize: a shipped label set. */
export const labelSet = (req: Request, res: Response) =>
  answer(req, res, 'set', () => initializeRepoLabels(req.ctx.db, repoOf(req), req.ctx.doer!, text(req, 'template')));

/** GET /{owner}/{repo}/labels/{id}/delete */
export async function labelDeletePage(req: Request, res: Response): Promise<void> {
  const l = await getRepoLabel(req.ctx.db, repoOf(req), String(indexParam(req, 'id')));
  if (!(await mayManageLabels(req.ctx.db, repoOf(req), req.ctx.doer))) throw new ForbiddenError('Only writers of this repository manage its labels.');
  confirmPage(req, res, {
    title: 'Delete label', message: html`The label <strong>${l.name}</strong> is taken off every issue and pull request, and deleted.`,
    action: path(req, `labels/${l.id}/delete`), button: 'Delete label', cancel: path(req, 'labels'),
  });
}

/** POST /{owner}/{repo}/labels/{id}/delete */
export async function labelDelete(req: Request, res: Response): Promise<void> {
  await deleteRepoLabel(req.ctx.db, repoOf(req), req.ctx.doer!, String(indexParam(req, 'id')));
  res.redirect(303, path(req, 'labels'));
}
