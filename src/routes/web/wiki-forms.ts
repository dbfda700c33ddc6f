import type { Request, Response } from 'express';
import { ForbiddenError } from '../../lib/errors';
import { html } from '../../lib/html';
import { userTitleToWebPath, webPathToUserTitle } from '../../lib/wiki-path';
import { deleteWikiPage, getWikiPage, writeWikiPage } from '../../services/wiki/wiki';
import { confirmPage, csrfInput, field, formAction, formAlert, markdownField, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { text } from './issue-actions';
import { sendPage, webUrl } from './layout';
import { isWriter, pageName, wikiHead, wikiPath } from './wiki-common';

// The wiki's writers' forms: a new page, editing (and renaming) one with a markdown preview,
// and deleting one after a confirmation page. Each calls the wiki service the API calls; a
// refused form comes back 422 with what was typed.

type Values = { title: string; content: string; message: string };

function assertWriter(res: Response): void {
  if (!isWriter(res)) throw new ForbiddenError('Only writers of this repository change its wiki.');
}

function form(req: Request, res: Response, name: string | null, v: Values, errors: FieldErrors, status = 200): void {
  const a = repoOf(req);
  const heading = name ? `Edit ${webPathToUserTitle(name)}` : 'New wiki page';
  const action = name ? wikiPath(req, `${name}?action=_edit`) : wikiPath(req, '_new');
  sendPage(req, res, {
    title: `${heading} · Wiki`, status,
    body: html`${wikiHead(req, res)}<h2>${heading}</h2><form class="stack" method="post" action="${action}">${formAlert(errors[''])}${csrfInput(req, res)}
${field({ name: 'title', label: 'Title', value: v.title, required: true, autofocus: !name }, errors)}
${markdownField({ name: 'content', label: 'Content', value: v.content, previewUrl: webUrl(req.ctx.config, '-/markdown'), context: `${a.owner.name}/${a.repo.name}` }, errors)}
${field({ name: 'message', label: 'Edit message', value: v.message, hint: 'Optional: the commit message.' }, errors)}
${submitButton(name ? 'Save page' : 'Create page')} <a class="button" href="${name ? wikiPath(req, name) : wikiPath(req)}">Cancel</a></form>`,
  });
}

/** GET .../wiki/_new (and `?action=_new`) */
export function newPage(req: Request, res: Response): void {
  assertWriter(res);
  form(req, res, null, { title: typeof req.query.title === 'string' ? req.query.title : '', content: '', message: '' }, {});
}

/** GET .../wiki/{page}?action=_edit */
export async function editPage(req: Request, res: Response, name: string): Promise<void> {
  assertWriter(res);
  const page = await getWikiPage(req.ctx.config, repoOf(req), name);
  form(req, res, name, { title: webPathToUserTitle(name), content: Buffer.from(page.content, 'base64').toString('utf8'), message: '' }, {});
}

/** GET .../wiki/{page}?action=_delete: the confirmation. */
export async function deletePage(req: Request, res: Response, name: string): Promise<void> {
  assertWriter(res);
  await getWikiPage(req.ctx.config, repoOf(req), name);
  confirmPage(req, res, {
    title: 'Delete wiki page', message: html`The page <strong>${webPathToUserTitle(name)}</strong> is removed from the wiki (its history stays in the wiki's repository).`,
    action: wikiPath(req, `${name}?action=_delete`), button: 'Delete page', cancel: wikiPath(req, name),
  });
}

const posted = (req: Request): Values => ({ title: text(req, 'title'), content: text(req, 'content'), message: text(req, 'message') });

/** Saves the page; the service's refusals (an existing or a reserved title) are shown under the title. */
async function save(req: Request, res: Response, oldName: string | null): Promise<void> {
  const v = posted(req);
  const errors = v.title.trim()
    ? await formAction(async () => {
      const name = userTitleToWebPath('', v.title);
      const message = v.message.trim() || (oldName ? `Update page '${webPathToUserTitle(name)}'` : `Add '${v.title.trim()}'`);
      await writeWikiPage(req.ctx.h, repoOf(req), req.ctx.doer!, {
        oldName: oldName ?? undefined, name, content: Buffer.from(v.content, 'utf8'), message, isNew: oldName === null,
      });
      redirectTo(req, res, name);
    }, {})
    : { title: 'A page needs a title.' };
  if (errors) return form(req, res, oldName, v, errors.title || !errors[''] ? errors : { title: errors['']! }, 422);
}

const redirectTo = (req: Request, res: Response, name: string) => res.redirect(303, wikiPath(req, name));

/** POST .../wiki/_new */
export async function newPost(req: Request, res: Response): Promise<void> {
  await save(req, res, null);
}

/** POST .../wiki/{page}?action=_edit|_delete */
export async function pagePost(req: Request, res: Response): Promise<void> {
  const name = pageName(req);
  const action = typeof req.query.action === 'string' ? req.query.action : '';
  if (action === '_delete') {
    await deleteWikiPage(req.ctx.h, repoOf(req), req.ctx.doer!, name);
    return void res.redirect(303, wikiPath(req, '_pages'));
  }
  if (action === '_new') return save(req, res, null);
  await save(req, res, name);
}
