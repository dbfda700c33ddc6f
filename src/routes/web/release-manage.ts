import type { Request, RequestHandler, Response } from 'express';
import type { Attachment } from '../../db/schema';
import { ForbiddenError, InvalidError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { formFileMaxBytes } from '../../services/issue/attachment-upload';
import { deleteAsset, storeFormAsset } from '../../services/release/release-assets';
import { createRelease, deleteReleaseAndTag, deleteReleaseById, editRelease } from '../../services/release/release-write';
import { getReleaseByTag, mayWriteReleases, type ReleaseView } from '../../services/release/releases';
import { branchNamesOf } from '../../services/web/repo-settings';
import { pathParam } from '../table';
import { checkbox, csrfInput, field, formAction, formAlert, markdownField, submitButton, type FieldErrors } from './forms';
import { repoOf, rootPath, unitsOf } from './guards';
import { encodePath } from '../../lib/html';
import { repoHeader, repoLink, sendPage } from './layout';
import { selectField } from './repo-settings-layout';
import { formOf, radioGroup, text } from './settings-layout';
import type { Multipart } from './table';

// A release's writers' pages (Gitea's /releases/new, /releases/edit/{tag}, delete): an existing
// tag or a new one from a branch, title, notes with the preview, draft, pre-release, assets to
// upload (multipart) or delete, and deleting the release with or without its tag. The form is
// checked, files included, before anything is written; each action calls the API's release services.

type Form = Record<string, unknown>;
type FormFileIn = { buffer: Buffer; originalName: string };

/** The release forms' files: several, each within the web form limit (held in memory). */
export const RELEASE_UPLOAD: Multipart = { field: 'attachment', limits: (req: Request) => ({ fileSize: formFileMaxBytes(req.ctx.config), files: 10 }) };

/** Writers of the releases (and no archived repository): readers see the page's 403. */
export const releaseWriter: RequestHandler = async (req, _res, next) => {
  const access = repoOf(req);
  if (access.repo.is_archived) throw new ForbiddenError('This repository is archived: its releases cannot be changed.');
  if (!(await mayWriteReleases(req.ctx.db, access, req.ctx.doer))) throw new ForbiddenError('Only writers of this repository manage its releases.');
  next();
};

const link = (req: Request, rest: string) => repoLink(req.ctx.config, repoOf(req), rest);
const tagLink = (req: Request, verb: string, tag: string) => link(req, `releases/${verb}/${encodePath(tag)}`);
const filesOf = (req: Request): FormFileIn[] =>
  ((req.files ?? []) as Express.Multer.File[]).filter((f) => f.size > 0).map((f) => ({ buffer: f.buffer, originalName: f.originalname }));

function assetList(assets: Attachment[], v: Form): SafeHtml {
  if (!assets.length) return html``;
  return html`<fieldset class="field"><legend>Assets</legend>${assets.map((a) => checkbox(`delete_asset_${a.id}`, `Delete ${a.name}`, text(v, `delete_asset_${a.id}`) === 'on'))}</fieldset>`;
}

async function formPage(req: Request, res: Response, o: { view?: ReleaseView; values: Form; errors?: FieldErrors }): Promise<void> {
  const { config } = req.ctx;
  const access = repoOf(req);
  const v = o.values;
  const e = o.errors ?? {};
  const branches = await branchNamesOf(req.ctx.db, access);
  const editing = o.view?.release;
  const action = editing ? tagLink(req, 'edit', editing.tag_name) : link(req, 'releases/new');
  const title = editing ? `Edit release ${editing.tag_name}` : 'New release';
  sendPage(req, res, {
    title, status: o.errors ? 422 : 200,
    body: html`${repoHeader(config, access, unitsOf(res), 'releases')}<div class="box"><h2>${title}</h2>${formAlert(e[''])}
<form class="stack" method="post" action="${action}" enctype="multipart/form-data">${csrfInput(req, res)}
${field({ name: 'tag_name', label: 'Tag name', value: text(v, 'tag_name'), required: true, hint: 'An existing tag, or a new one made from the target when the release is published.' }, e)}
${selectField('target', 'Target branch (for a new tag)', branches.map((b) => [b, b]), text(v, 'target') || access.repo.default_branch, e)}
${field({ name: 'title', label: 'Title', value: text(v, 'title') }, e)}
${markdownField({ name: 'note', label: 'Notes', value: text(v, 'note'), context: `${access.owner.name}/${access.repo.name}`, previewUrl: rootPath(req, '/-/markdown') }, e)}
${checkbox('draft', 'Draft: not published, its tag not made yet', text(v, 'draft') === 'on')}
${checkbox('prerelease', 'Pre-release: not ready for production', text(v, 'prerelease') === 'on')}
${assetList(o.view?.assets ?? [], v)}
<div class="field${e.attachment ? ' invalid' : ''}"><label for="f-attachment">Add assets</label><input id="f-attachment" type="file" name="attachment" multiple${e.attachment ? html` aria-invalid="true" aria-describedby="f-attachment-error"` : ''}>
${e.attachment ? html`<p class="error" id="f-attachment-error">${e.attachment}</p>` : ''}</div>
${submitButton(editing ? 'Save release' : 'Create release')} <a class="button" href="${link(req, 'releases')}">Cancel</a>
${editing ? html` <a class="button danger" href="${tagLink(req, 'delete', editing.tag_name)}">Delete release</a>` : ''}</form></div>`,
  });
}

const inputOf = (f: Form) => ({
  tag_name: text(f, 'tag_name').trim(), target: text(f, 'target'), title: text(f, 'title'), note: text(f, 'note'),
  draft: text(f, 'draft') === 'on', prerelease: text(f, 'prerelease') === 'on',
});

/** The form's files, refused before anything is written (an asset needs a name). */
function checkFiles(files: FormFileIn[]): void {
  if (files.some((f) => !f.originalName)) throw new InvalidError('Each asset needs a file name.', 'attachment');
}

/** GET /{owner}/{repo}/releases/new (`?tag=` fills the tag name) */
export const newPage = (req: Request, res: Response): Promise<void> =>
  formPage(req, res, { values: { tag_name: typeof req.query.tag === 'string' ? req.query.tag : '' } });

/** POST /{owner}/{repo}/releases/new */
export async function createPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const files = filesOf(req);
  let tag = '';
  const errors = await formAction(async () => {
    checkFiles(files);
    const view = await createRelease(req.ctx.h, repoOf(req), req.ctx.doer!, inputOf(f));
    tag = view.release.tag_name;
    for (const file of files) await storeFormAsset(req.ctx.h, repoOf(req), req.ctx.doer!, view.release, file);
  });
  if (errors) return formPage(req, res, { values: f, errors });
  res.redirect(303, tagLink(req, 'tag', tag));
}

const current = (req: Request) => getReleaseByTag(req.ctx.db, repoOf(req), req.ctx.doer, pathParam(req, 'tag'));

function valuesOf(view: ReleaseView): Form {
  const r = view.release;
  return { tag_name: r.tag_name, target: r.target, title: r.title, note: r.note, draft: r.is_draft ? 'on' : '', prerelease: r.is_prerelease ? 'on' : '' };
}

/** GET /{owner}/{repo}/releases/edit/{tag} */
export async function editPage(req: Request, res: Response): Promise<void> {
  const view = await current(req);
  await formPage(req, res, { view, values: valuesOf(view) });
}

/** POST /{owner}/{repo}/releases/edit/{tag}: the fields, assets ticked for deletion, new assets. */
export async function editPost(req: Request, res: Response): Promise<void> {
  const view = await current(req);
  const f = formOf(req);
  const files = filesOf(req);
  let tag = view.release.tag_name;
  const errors = await formAction(async () => {
    checkFiles(files);
    // Gitea keeps a value left empty: an emptied title or notes field clears nothing.
    const edited = await editRelease(req.ctx.h, repoOf(req), req.ctx.doer!, view.release.id, inputOf(f));
    tag = edited.release.tag_name;
    for (const a of view.assets) if (text(f, `delete_asset_${a.id}`) === 'on') await deleteAsset(req.ctx.h, repoOf(req), req.ctx.doer!, view.release.id, a.id);
    for (const file of files) await storeFormAsset(req.ctx.h, repoOf(req), req.ctx.doer!, edited.release, file);
  });
  if (errors) return formPage(req, res, { view, values: f, errors });
  res.redirect(303, tagLink(req, 'tag', tag));
}

/** GET /{owner}/{repo}/releases/delete/{tag}: what goes, and whether the tag goes too. */
export async function deletePage(req: Request, res: Response): Promise<void> {
  const { release } = await current(req);
  sendPage(req, res, {
    title: 'Delete release',
    body: html`<div class="box"><h1>Delete release ${release.tag_name}</h1><p>The release and its assets are deleted for good.</p>
<form class="stack" method="post" action="${tagLink(req, 'delete', release.tag_name)}">${csrfInput(req, res)}
${radioGroup('tag', 'Its tag', [{ value: 'keep', label: `Keep the tag ${release.tag_name}` }, { value: 'delete', label: `Delete the tag ${release.tag_name} too` }], 'keep')}
${submitButton('Delete release', 'danger')} <a class="button" href="${tagLink(req, 'edit', release.tag_name)}">Cancel</a></form></div>`,
  });
}

/** POST /{owner}/{repo}/releases/delete/{tag} */
export async function deletePost(req: Request, res: Response): Promise<void> {
  const { release } = await current(req);
  if (text(formOf(req), 'tag') === 'delete') await deleteReleaseAndTag(req.ctx.h, repoOf(req), release.id, req.ctx.doer!);
  else await deleteReleaseById(req.ctx.h, repoOf(req), release.id, req.ctx.doer!);
  res.redirect(303, link(req, 'releases'));
}
