import type { Request, Response } from 'express';
import type { Milestone } from '../../db/schema';
import { ForbiddenError, InvalidError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { createRepoMilestone, deleteRepoMilestone, editRepoMilestone, getRepoMilestone, NO_DEADLINE } from '../../services/issue/milestones';
import { milestonesPage } from '../../services/web/issue-pages-meta';
import type { ListState } from '../../services/web/issue-pages';
import { mayManageLabels } from '../../services/web/manage-rights';
import { queryInt, queryString } from '../query';
import { confirmPage, csrfInput, field, formAction, formAlert, markdownField, submitButton, type FieldErrors } from './forms';
import { repoOf, unitsOf } from './guards';
import { text } from './issue-actions';
import { milestonesBody } from './issue-pages-html';
import { indexParam } from './issue-view-pages';
import { pageColour, repoHeader, repoLink, sendPage, webUrl } from './layout';

// The milestones page with its writers' forms: new and edit (title, description with preview,
// due date), close and reopen as buttons, delete through a confirmation page. Each form calls
// the API's milestone service; a refused one comes back (422) with its values.

const path = (req: Request, rest: string) => repoLink(req.ctx.config, repoOf(req), rest);

async function assertManager(req: Request): Promise<void> {
  if (!(await mayManageLabels(req.ctx.db, repoOf(req), req.ctx.doer))) throw new ForbiddenError('Only writers of this repository manage its milestones.');
}

function rowActions(req: Request, res: Response) {
  return (m: Milestone): SafeHtml => html`<div class="row-actions"><a href="${path(req, `milestones/${m.id}/edit`)}" aria-label="Edit ${m.name}">Edit</a>
<form method="post" action="${path(req, `milestones/${m.id}/state`)}">${csrfInput(req, res)}<button type="submit" name="state" value="${m.is_closed ? 'open' : 'closed'}" aria-label="${m.is_closed ? 'Reopen' : 'Close'} ${m.name}">${m.is_closed ? 'Reopen' : 'Close'}</button></form>
<a href="${path(req, `milestones/${m.id}/delete`)}" aria-label="Delete ${m.name}">Delete</a></div>`;
}

/** GET /{owner}/{repo}/milestones */
export async function milestonesManagePage(req: Request, res: Response): Promise<void> {
  const { db, config, doer } = req.ctx;
  const access = repoOf(req);
  const s = queryString(req, 'state');
  const state: ListState = s === 'closed' || s === 'all' ? s : 'open';
  const n = Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), 100_000);
  const [page, writer] = await Promise.all([milestonesPage(db, access, state, n), mayManageLabels(db, access, doer)]);
  const v = { config, access, colour: (hex: string) => pageColour(res, hex) };
  sendPage(req, res, {
    title: `Milestones · ${access.owner.name}/${access.repo.name}`,
    body: html`${repoHeader(config, access, unitsOf(res), 'milestones')}${writer ? html`<p><a class="button primary" href="${path(req, 'milestones/new')}">New milestone</a></p>` : ''}
${milestonesBody(v, page, state, n, writer ? rowActions(req, res) : undefined)}`,
  });
}

const dateOf = (m: Milestone) => (m.deadline_unix && m.deadline_unix < NO_DEADLINE ? new Date(m.deadline_unix * 1000).toISOString().slice(0, 10) : '');

function form(req: Request, res: Response, m: Milestone | null, values: Record<string, string>, errors: FieldErrors, status = 200): void {
  const access = repoOf(req);
  const title = m ? `Edit milestone ${m.name}` : 'New milestone';
  sendPage(req, res, {
    title, status,
    body: html`${repoHeader(req.ctx.config, access, unitsOf(res), 'milestones')}<h2>${title}</h2>
<form class="stack" method="post" action="${path(req, m ? `milestones/${m.id}/edit` : 'milestones/new')}">${formAlert(errors[''])}${csrfInput(req, res)}
${field({ name: 'title', label: 'Title', value: values.title, required: true, autofocus: true }, errors)}
${markdownField({ name: 'content', label: 'Description', value: values.content, previewUrl: webUrl(req.ctx.config, '-/markdown'), context: `${access.owner.name}/${access.repo.name}` }, errors)}
${field({ name: 'deadline', label: 'Due date', type: 'date', value: values.deadline, hint: 'Leave empty for none.' }, errors)}
${submitButton(m ? 'Save' : 'Create milestone')} <a class="button" href="${path(req, 'milestones')}">Cancel</a></form>`,
  });
}

const posted = (req: Request) => ({ title: text(req, 'title'), content: text(req, 'content'), deadline: text(req, 'deadline').trim() });
/** A date input's day as the service's RFC 3339 (the end of that day, UTC); '' for none. */
const dueOf = (day: string): string | null => (day ? `${day}T23:59:59Z` : null);

/** GET /{owner}/{repo}/milestones/new */
export async function milestoneNewPage(req: Request, res: Response): Promise<void> {
  await assertManager(req);
  form(req, res, null, {}, {});
}

/** POST /{owner}/{repo}/milestones/new */
export async function milestoneCreate(req: Request, res: Response): Promise<void> {
  const p = posted(req);
  const errors = await formAction(async () => {
    if (!p.title.trim()) throw new InvalidError('Enter a title.', 'title');
    await createRepoMilestone(req.ctx.db, repoOf(req), req.ctx.doer!, { title: p.title.trim(), description: p.content, due_on: dueOf(p.deadline) });
  }, { due_on: 'deadline' });
  if (errors) return form(req, res, null, p, errors, 422);
  res.redirect(303, path(req, 'milestones'));
}

const milestoneOf = (req: Request) => getRepoMilestone(req.ctx.db, repoOf(req), String(indexParam(req, 'id')));

/** GET /{owner}/{repo}/milestones/{id}/edit */
export async function milestoneEditPage(req: Request, res: Response): Promise<void> {
  await assertManager(req);
  const m = await milestoneOf(req);
  form(req, res, m, { title: m.name, content: m.content, deadline: dateOf(m) }, {});
}

/** POST /{owner}/{repo}/milestones/{id}/edit */
export async function milestoneEdit(req: Request, res: Response): Promise<void> {
  const m = await milestoneOf(req);
  const p = posted(req);
  const errors = await formAction(async () => {
    if (!p.title.trim()) throw new InvalidError('Enter a title.', 'title');
    // An emptied date keeps the one it had: the service (as the API) takes no removal.
    await editRepoMilestone(req.ctx.db, repoOf(req), req.ctx.doer!, String(m.id), { title: p.title.trim(), description: p.content, due_on: dueOf(p.deadline) });
  }, { due_on: 'deadline' });
  if (errors) return form(req, res, m, p, errors, 422);
  res.redirect(303, path(req, 'milestones'));
}

/** POST /{owner}/{repo}/milestones/{id}/state: `state` open or closed. */
export async function milestoneState(req: Request, res: Response): Promise<void> {
  const m = await milestoneOf(req);
  const state = text(req, 'state') === 'closed' ? 'closed' : 'open';
  await editRepoMilestone(req.ctx.db, repoOf(req), req.ctx.doer!, String(m.id), { state });
  res.redirect(303, path(req, `milestones?state=${state === 'closed' ? 'closed' : 'open'}`));
}

/** GET /{owner}/{repo}/milestones/{id}/delete */
export async function milestoneDeletePage(req: Request, res: Response): Promise<void> {
  await assertManager(req);
  const m = await milestoneOf(req);
  confirmPage(req, res, {
    title: 'Delete milestone', message: html`The milestone <strong>${m.name}</strong> is deleted; its issues and pull requests stay, without it.`,
    action: path(req, `milestones/${m.id}/delete`), button: 'Delete milestone', cancel: path(req, 'milestones'),
  });
}

/** POST /{owner}/{repo}/milestones/{id}/delete */
export async function milestoneDelete(req: Request, res: Response): Promise<void> {
  const m = await milestoneOf(req);
  await deleteRepoMilestone(req.ctx.db, repoOf(req), req.ctx.doer!, String(m.id));
  res.redirect(303, path(req, 'milestones'));
}
