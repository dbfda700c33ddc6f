import type { Request, Response } from 'express';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { assertFile, canCommitTo, commitFromEditor, editorTarget, fileToEdit, patchBranchName, type EditorChange, type EditorTarget } from '../../services/web/editor';
import { MARKDOWN } from '../../services/web/code-pages';
import { doerOf, repoOf } from '../context';
import { pathParam } from '../table';
import type { Multipart } from './table';
import { commitBox, editorAction, readCommitForm, text, type CommitBox } from './editor-form';
import { csrfInput, field, markdownField, redirectAfterPost, type FieldErrors } from './forms';
import { unitsOf } from './guards';
import { repoLink, webUrl } from './layout';
import { repoPage } from './repo-view';

// Editing files in the browser, at Gitea's paths: `_new/{branch}/{dir}`, `_edit/{branch}/{path}`,
// `_upload/{branch}/{dir}` (a multipart form, several files) and `_delete/{branch}/{path}`. Each
// form ends with the commit box; posting makes one commit through the contents service, then
// goes to the file, or (on a new branch) to the comparison that starts a pull request.

type Body = Record<string, unknown>;
type Kind = 'new' | 'edit' | 'upload' | 'delete';
const TITLES: Record<Kind, string> = { new: 'New file', edit: 'Edit file', upload: 'Upload files', delete: 'Delete file' };

const bodyOf = (req: Request): Body => (req.body ?? {}) as Body;
const target = (req: Request) => editorTarget(req.ctx.config, repoOf(req), pathParam(req, 'rest'));
const repoPath = (req: Request, rest: string) => `${encodePath(repoOf(req).owner.name)}/${encodePath(repoOf(req).repo.name)}/${rest}`;
const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

async function box(req: Request, t: EditorTarget, body: Body | null, placeholder: string): Promise<CommitBox> {
  const canDirect = await canCommitTo(req.ctx.db, repoOf(req), doerOf(req), t.branch);
  const form = body ? readCommitForm(body) : null;
  return {
    summary: form?.summary ?? '', body: form?.body ?? '', signoff: form?.signoff ?? false,
    choice: form?.choice ?? (canDirect ? 'direct' : 'commit-to-new-branch'),
    newBranch: form?.newBranch || patchBranchName(doerOf(req), t.tips),
    lastCommit: form?.lastCommit ?? t.commit ?? '', branch: t.branch, canDirect, placeholder,
  };
}

function formPage(req: Request, res: Response, kind: Kind, t: EditorTarget, inner: SafeHtml, status: number): void {
  const access = repoOf(req);
  const action = repoLink(req.ctx.config, access, `${kind === 'new' ? '_new' : `_${kind}`}/${encodePath(t.branch)}${t.path ? `/${encodePath(t.path)}` : ''}`);
  const enctype = kind === 'upload' ? html` enctype="multipart/form-data"` : '';
  const cancel = t.commit ? repoLink(req.ctx.config, access, `src/branch/${encodePath(t.branch)}${t.path ? `/${encodePath(t.path)}` : ''}`) : repoLink(req.ctx.config, access);
  repoPage(req, res, `${TITLES[kind]} · ${t.branch}`, 'code', html`<h2>${TITLES[kind]} <span class="meta">on ${t.branch}</span></h2>
<form class="editor" method="post" action="${action}"${enctype}>${csrfInput(req, res)}${inner}</form>
<p><a href="${cancel}">Cancel</a></p>`, status);
}

/** After the commit: the comparison of a new branch (a pull request's start), else the file or directory. */
function afterCommit(req: Request, res: Response, t: EditorTarget, branch: string, path: string): void {
  if (branch !== t.branch && unitsOf(res).has('repo.pulls')) {
    return redirectAfterPost(req, res, repoPath(req, `compare/${encodePath(t.branch)}...${encodePath(branch)}`));
  }
  redirectAfterPost(req, res, repoPath(req, `src/branch/${encodePath(branch)}${path ? `/${encodePath(path)}` : ''}`));
}

async function textForm(req: Request, res: Response, kind: 'new' | 'edit', body: Body | null, errors: FieldErrors, status: number): Promise<void> {
  const t = await target(req);
  const file = kind === 'edit' ? await fileToEdit(req.ctx.config, repoOf(req), t) : null;
  const path = body ? text(body, 'tree_path') : kind === 'edit' ? t.path : t.path ? `${t.path}/` : '';
  const content = body ? text(body, 'content') : file?.text ?? '';
  const access = repoOf(req);
  const editor = MARKDOWN.test(path)
    ? markdownField({ name: 'content', label: 'Content', value: content, context: `${access.owner.name}/${access.repo.name}`, previewUrl: webUrl(req.ctx.config, '-/markdown') }, errors)
    : html`<div class="field"><label for="f-content">Content</label><textarea id="f-content" name="content" class="code-input" rows="20" spellcheck="false">${content}</textarea></div>`;
  const v = await box(req, t, body, kind === 'new' ? `Add ${path || 'a file'}` : `Update ${path}`);
  formPage(req, res, kind, t, html`${field({ name: 'tree_path', label: 'File name (with its directory)', value: path, required: true, autofocus: kind === 'new' }, errors)}
${editor}${commitBox(v, errors, 'Commit changes')}`, status);
}

async function post(req: Request, res: Response, kind: Kind, change: (t: EditorTarget, body: Body) => EditorChange, rerender: (errors: FieldErrors) => Promise<void>): Promise<void> {
  const t = await target(req);
  const body = bodyOf(req);
  const c = change(t, body);
  const done = await editorAction(t.branch, () => commitFromEditor(req.ctx.h, repoOf(req), doerOf(req), t, readCommitForm(body), c));
  if ('errors' in done) return rerender(done.errors);
  const landed = c.kind === 'delete' ? parentOf(c.path) : c.kind === 'upload' ? c.dir : c.path;
  afterCommit(req, res, t, done.ok, landed);
}

export const newForm = (req: Request, res: Response) => textForm(req, res, 'new', null, {}, 200);
export const editForm = (req: Request, res: Response) => textForm(req, res, 'edit', null, {}, 200);

export const newPost = (req: Request, res: Response) => post(req, res, 'new',
  (_t, b) => ({ kind: 'new', path: text(b, 'tree_path').trim(), content: text(b, 'content') }),
  (errors) => textForm(req, res, 'new', bodyOf(req), errors, 422));

export const editPost = (req: Request, res: Response) => post(req, res, 'edit',
  (t, b) => ({ kind: 'edit', fromPath: t.path, path: text(b, 'tree_path').trim() || t.path, content: text(b, 'content') }),
  (errors) => textForm(req, res, 'edit', bodyOf(req), errors, 422));

async function deletePage(req: Request, res: Response, body: Body | null, errors: FieldErrors, status: number): Promise<void> {
  const t = await target(req);
  await assertFile(req.ctx.config, repoOf(req), t);
  const v = await box(req, t, body, `Delete ${t.path}`);
  formPage(req, res, 'delete', t, html`<p>The file <code>${t.path}</code> will be deleted from <code>${t.branch}</code>.</p>${commitBox(v, errors, 'Delete file', true)}`, status);
}

export const deleteForm = (req: Request, res: Response) => deletePage(req, res, null, {}, 200);
export const deletePost = (req: Request, res: Response) => post(req, res, 'delete',
  (t) => ({ kind: 'delete', path: t.path }),
  (errors) => deletePage(req, res, bodyOf(req), errors, 422));

async function uploadPage(req: Request, res: Response, body: Body | null, errors: FieldErrors, status: number): Promise<void> {
  const t = await target(req);
  const dir = body ? text(body, 'tree_path') : t.path;
  const v = await box(req, t, body, `Upload files to "${dir || '/'}"`);
  formPage(req, res, 'upload', t, html`${field({ name: 'tree_path', label: 'Directory (empty: the top)', value: dir }, errors)}
<div class="field${errors.files ? ' invalid' : ''}"><label for="f-files">Files</label><input id="f-files" type="file" name="files" multiple required${errors.files ? html` aria-invalid="true" aria-describedby="f-files-error"` : ''}>
${errors.files ? html`<p class="error" id="f-files-error">${errors.files}</p>` : ''}</div>
${commitBox(v, errors, 'Commit changes')}`, status);
}

/** Files per upload (Gitea's [repository.upload] MAX_FILES default), each within the contents service's blob limit. */
export const UPLOAD: Multipart = { field: 'files', limits: (req) => ({ fileSize: req.ctx.config.api.default_max_blob_size, files: 5 }) };

export const uploadForm = (req: Request, res: Response) => uploadPage(req, res, null, {}, 200);

/** The files of the multipart body, each named by its base name (a browser sends no directories). */
const uploaded = (req: Request) => ((req.files ?? []) as Express.Multer.File[]).map((f) => ({
  name: f.originalname.replace(/\\/g, '/').split('/').pop() ?? '', content: f.buffer,
}));

export const uploadPost = (req: Request, res: Response) => post(req, res, 'upload',
  (_t, b) => ({ kind: 'upload', dir: text(b, 'tree_path').trim().replace(/^\/+|\/+$/g, ''), files: uploaded(req) }),
  (errors) => uploadPage(req, res, bodyOf(req), errors, 422));
