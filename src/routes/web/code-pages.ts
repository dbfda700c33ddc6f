import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';
import { homePage, legacySrcTarget, srcPage, type TreePage } from '../../services/web/code-pages';
import { splitRefKind } from '../../services/web/refs';
import { codeWritable } from '../../services/web/units';
import { repoOf } from '../context';
import { queryString } from '../query';
import { pathParam } from '../table';
import { fileView, refPath } from './file-view';
import { unitsOf } from './guards';
import { repoLink } from './layout';
import { crumbs, refSwitcher, repoPage, switchedRef } from './repo-view';
import { aboutBox, cloneBox, emptyRepo, treeView } from './tree-view';

// The repository home and `src/{branch|tag|commit}/{ref}/{path}` (a directory or a file):
// their URLs are the html_url of repositories and contents.

/** New file and Upload links of a directory on a branch, for those who may write. */
function writeLinks(config: Config, access: RepoAccess, branch: string, path: string): SafeHtml {
  const at = `${encodePath(branch)}${path ? `/${encodePath(path)}` : ''}`;
  return html`<nav class="dir-actions" aria-label="Directory"><a class="button" href="${repoLink(config, access, `_new/${at}`)}">New file</a> <a class="button" href="${repoLink(config, access, `_upload/${at}`)}">Upload files</a></nav>`;
}

const dirActions = (config: Config, access: RepoAccess, page: TreePage, canWrite: boolean): SafeHtml | string =>
  (canWrite && page.target.ref.kind === 'branch' ? writeLinks(config, access, page.target.ref.name, page.target.path) : '');

/** GET /{owner}/{repo}: the default branch's root, its README, the clone and about boxes. */
export async function home(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config, db, doer } = req.ctx;
  const units = unitsOf(res);
  if (!units.has('repo.code')) return repoPage(req, res, '', 'none', html``);
  const [page, canWrite] = await Promise.all([homePage(req.ctx.h, access, doer, units.has('repo.releases')), codeWritable(db, access, doer)]);
  if (page.kind === 'empty') {
    const links = canWrite ? writeLinks(config, access, access.repo.default_branch, '') : html``;
    return repoPage(req, res, '', 'code', html`${cloneBox(config, access)}${emptyRepo(config, access, access.repo.default_branch, links)}`);
  }
  const action = repoLink(config, access, refPath('src', page.target));
  repoPage(req, res, '', 'code', html`<div class="repo-home"><div class="main-col">
<div class="code-bar">${refSwitcher(action, page.tips, page.target.ref)}${dirActions(config, access, page, canWrite)}${cloneBox(config, access)}</div>
${treeView(config, access, page)}</div>
${aboutBox(config, access, page.about, !!doer)}</div>`);
}

/** GET /{owner}/{repo}/src/{branch|tag|commit}/{ref}/{path}; the older `src/{ref}/{path}` redirects. */
export async function src(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config, db, doer } = req.ctx;
  const rest = pathParam(req, 'rest');
  const typed = splitRefKind(rest);
  if (!typed) {
    res.redirect(302, repoLink(config, access, `src/${encodePath(await legacySrcTarget(config, access, rest))}`));
    return;
  }
  const source = queryString(req, 'display') === 'source';
  const [page, canWrite] = await Promise.all([srcPage(req.ctx.h, access, doer, typed.kind, typed.rest, source), codeWritable(db, access, doer)]);
  const switched = switchedRef(req, page.tips);
  if (switched) {
    res.redirect(303, repoLink(config, access, `src/${encodePath(switched)}${page.target.path ? `/${encodePath(page.target.path)}` : ''}`));
    return;
  }
  const head = html`<div class="code-bar">${refSwitcher(repoLink(config, access, refPath('src', page.target)), page.tips, page.target.ref)}${page.kind === 'tree' ? dirActions(config, access, page, canWrite) : ''}</div>
${crumbs(config, access, page.target)}`;
  const view = page.kind === 'tree' ? treeView(config, access, page) : fileView(config, access, page, canWrite, source);
  repoPage(req, res, page.target.path || page.target.ref.name, 'code', html`${head}${view}`);
}
