import type { Request, Response } from 'express';
import type { Label, User } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import { createLabel, deleteLabel, editLabel, getLabel, listScopedLabels, type CreateLabelInput } from '../../services/issue/labels';
import { orgForOwner } from '../../services/web/org-settings';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { pageColour, webUrl } from './layout';
import { orgPath } from './org-pages';
import { frame } from './org-settings-more';
import { formOf, text } from './settings-layout';

// An organization's labels (Gitea's /org/{org}/settings/labels), which every repository of the
// organization offers: add, edit in place (`?edit=<id>`), delete through a confirmation page,
// through the labels service of /orgs/{org}/labels.

type Form = Record<string, unknown>;
type Posted = { key: string; values: Form; errors: FieldErrors };
const LIMIT = 200;
const orgOf = (req: Request) => orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
const labelsUrl = (req: Request, org: User, rest = '') => webUrl(req.ctx.config, orgPath(org, `/settings/labels${rest}`));

function fields(key: string, v: Form, errors: FieldErrors): SafeHtml {
  return html`${field({ name: 'name', id: `${key}-name`, label: 'Name', value: text(v, 'name'), required: true }, errors)}
${field({ name: 'color', id: `${key}-color`, label: 'Colour', type: 'color', value: text(v, 'color') || '#2b7489' }, errors)}
${field({ name: 'description', id: `${key}-description`, label: 'Description', value: text(v, 'description') }, errors)}
${checkbox('exclusive', 'Exclusive (scoped: one label of its scope per issue)', v.exclusive === 'on')}${checkbox('archived', 'Archived', v.archived === 'on')}`;
}

const valuesOf = (l: Label): Form => ({
  name: l.name, color: `#${l.color.replace(/^#/, '')}`, description: l.description, exclusive: l.exclusive ? 'on' : '', archived: l.is_archived ? 'on' : '',
});

async function render(req: Request, res: Response, org: User, posted?: Posted): Promise<void> {
  const { labels } = await listScopedLabels(req.ctx.db, { orgId: org.id }, undefined, { offset: 0, limit: LIMIT });
  const editing = posted?.key ?? (typeof req.query.edit === 'string' ? req.query.edit : '');
  const fresh = posted?.key === 'new' ? posted : undefined;
  const item = (l: Label): SafeHtml => {
    const chip = html`<span class="label ${pageColour(res, `#${l.color.replace(/^#/, '')}`)}">${l.name}</span>${l.description ? html` <span class="meta">${l.description}</span>` : ''}`;
    if (String(l.id) !== editing) {
      return html`<li>${chip} <a href="${labelsUrl(req, org, `?edit=${l.id}`)}" aria-label="Edit ${l.name}">Edit</a> <a href="${labelsUrl(req, org, `/${l.id}/delete`)}" aria-label="Delete ${l.name}">Delete</a></li>`;
    }
    const mine = posted?.key === String(l.id) ? posted : undefined;
    return html`<li>${chip}<form class="stack" method="post" action="${labelsUrl(req, org, `/${l.id}/edit`)}">${formAlert(mine?.errors[''])}${csrfInput(req, res)}
${fields(`edit-${l.id}`, mine?.values ?? valuesOf(l), mine?.errors ?? {})}${submitButton('Save')} <a class="button" href="${labelsUrl(req, org)}">Cancel</a></form></li>`;
  };
  frame(req, res, org, '/labels', 'Labels', html`<p class="meta">Labels of the organization are offered in every one of its repositories.</p>
<details class="box"${fresh ? html` open` : ''}><summary>New label</summary><form class="stack" method="post" action="${labelsUrl(req, org, '/new')}">${formAlert(fresh?.errors[''])}${csrfInput(req, res)}
${fields('new', fresh?.values ?? {}, fresh?.errors ?? {})}${submitButton('Create label')}</form></details>
${labels.length ? html`<ul class="list labels">${labels.map(item)}</ul>` : html`<p class="meta">No labels.</p>`}`, posted ? 422 : 200);
}

/** GET /org/{org}/settings/labels */
export const orgLabels = async (req: Request, res: Response) => render(req, res, await orgOf(req));

const inputOf = (b: Form): CreateLabelInput => ({
  name: text(b, 'name').trim(), color: text(b, 'color'), description: text(b, 'description'), exclusive: b.exclusive === 'on', is_archived: b.archived === 'on',
});

async function answer(req: Request, res: Response, key: string, action: (org: User) => Promise<unknown>): Promise<void> {
  const org = await orgOf(req);
  const errors = await formAction(async () => { await action(org); });
  if (errors) return render(req, res, org, { key, values: formOf(req), errors });
  redirectAfterPost(req, res, orgPath(org, '/settings/labels'));
}

/** POST /org/{org}/settings/labels/new */
export const orgLabelCreate = (req: Request, res: Response) => answer(req, res, 'new', (org) => createLabel(req.ctx.db, { orgId: org.id }, inputOf(formOf(req))));

/** POST /org/{org}/settings/labels/{id}/edit */
export const orgLabelEdit = (req: Request, res: Response) =>
  answer(req, res, String(req.params.id), (org) => editLabel(req.ctx.db, { orgId: org.id }, String(req.params.id), inputOf(formOf(req))));

/** GET /org/{org}/settings/labels/{id}/delete */
export async function orgLabelDeletePage(req: Request, res: Response): Promise<void> {
  const org = await orgOf(req);
  const l = await getLabel(req.ctx.db, { orgId: org.id }, String(req.params.id));
  confirmPage(req, res, {
    title: 'Delete label', message: html`The label <strong>${l.name}</strong> is taken off every issue and pull request of ${org.name}'s repositories, and deleted.`,
    action: labelsUrl(req, org, `/${l.id}/delete`), button: 'Delete label', cancel: labelsUrl(req, org),
  });
}

/** POST /org/{org}/settings/labels/{id}/delete */
export async function orgLabelDelete(req: Request, res: Response): Promise<void> {
  const org = await orgOf(req);
  await deleteLabel(req.ctx.db, { orgId: org.id }, String(req.params.id));
  redirectAfterPost(req, res, orgPath(org, '/settings/labels'));
}
