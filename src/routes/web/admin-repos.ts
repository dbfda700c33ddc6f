import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import type { RepoWithParent } from '../../services/repo/repos';
import { adminDeleteRepo, adminRepoList, adminUnadoptedAction, adminUnadoptedList } from '../../services/web/admin-repos';
import { confirmPage, csrfInput, redirectAfterPost } from './forms';
import { adminPage, pageWindow, searchForm, searchTerm } from './admin-layout';
import { pager, repoLink, webUrl, when } from './layout';
import { formOf, text } from './settings-layout';

// /-/admin/repos: every repository with search and delete (through a confirmation page), and
// /-/admin/repos/unadopted: directories without a repository row, adopted or deleted.

const PER_PAGE = 50;

function repoRow(req: Request, v: RepoWithParent): SafeHtml {
  const { config } = req.ctx;
  const full = `${v.owner.name}/${v.repo.name}`;
  return html`<tr><td><a href="${repoLink(config, v)}">${full}</a>${v.repo.is_private ? html` <span class="badge">Private</span>` : ''}</td>
<td>${String(v.repo.num_stars)}</td><td>${String(v.repo.num_issues)}</td><td>${when(v.repo.updated_unix)}</td>
<td><a href="${webUrl(config, `-/admin/repos/delete?owner=${encodeURIComponent(v.owner.name)}&repo=${encodeURIComponent(v.repo.name)}`)}" aria-label="Delete ${full}">Delete</a></td></tr>`;
}

/** GET /-/admin/repos */
export async function reposPage(req: Request, res: Response): Promise<void> {
  const q = searchTerm(req);
  const w = pageWindow(req, PER_PAGE);
  const { views, total } = await adminRepoList(req.ctx.db, req.ctx.doer, q, w);
  const base = webUrl(req.ctx.config, '-/admin/repos');
  adminPage(req, res, {
    tab: 'repos', title: `Repositories (${total})`,
    body: html`<p><a href="${webUrl(req.ctx.config, '-/admin/repos/unadopted')}">Unadopted repositories</a></p>${searchForm(base, 'Search repositories', q)}
<div class="scroll"><table class="list-table"><tr><th>Repository</th><th>Stars</th><th>Issues</th><th>Updated</th><th>Action</th></tr>${views.map((v) => repoRow(req, v))}</table></div>
${pager(base, w.page, w.offset + views.length < total, q ? { q } : {})}`,
  });
}

const named = (req: Request, from: Record<string, unknown>) => ({ owner: text(from, 'owner'), repo: text(from, 'repo') });

/** GET /-/admin/repos/delete?owner=&repo= */
export function deleteRepoPage(req: Request, res: Response): void {
  const { owner, repo } = named(req, req.query as Record<string, unknown>);
  const which = new URLSearchParams({ owner, repo }).toString();
  confirmPage(req, res, {
    title: 'Delete repository', message: html`The repository <strong>${owner}/${repo}</strong>, its issues, pull requests, releases and wiki are deleted.`,
    action: webUrl(req.ctx.config, `-/admin/repos/delete?${which}`), button: 'Delete repository', cancel: webUrl(req.ctx.config, '-/admin/repos'),
  });
}

/** POST /-/admin/repos/delete?owner=&repo= */
export async function deleteRepoPost(req: Request, res: Response): Promise<void> {
  const { owner, repo } = named(req, req.query as Record<string, unknown>);
  await adminDeleteRepo(req.ctx.h, req.ctx.doer, owner, repo);
  redirectAfterPost(req, res, '-/admin/repos');
}

/** GET /-/admin/repos/unadopted */
export async function unadoptedPage(req: Request, res: Response): Promise<void> {
  const q = searchTerm(req);
  const w = pageWindow(req, PER_PAGE);
  const { names, total } = await adminUnadoptedList(req.ctx.h, req.ctx.doer, q, w);
  const base = webUrl(req.ctx.config, '-/admin/repos/unadopted');
  const item = (full: string) => {
    const [owner, repo] = full.split('/');
    const form = (action: string, label: string, kind: string) => html`<form class="inline" method="post" action="${webUrl(req.ctx.config, `-/admin/repos/unadopted/${action}`)}">${csrfInput(req, res)}<input type="hidden" name="owner" value="${owner}"><input type="hidden" name="repo" value="${repo}"><button type="submit"${kind ? html` class="${kind}"` : ''} aria-label="${label} ${full}">${label}</button></form>`;
    return html`<li><code>${full}</code> ${form('adopt', 'Adopt', '')} ${form('delete', 'Delete files', 'danger')}</li>`;
  };
  adminPage(req, res, {
    tab: 'repos', title: `Unadopted repositories (${total})`,
    body: html`<p class="meta">Directories under the repository root that no repository owns. Adopting makes them repositories; deleting removes the files.</p>
${searchForm(base, 'Search unadopted repositories', q)}${names.length ? html`<ul class="list">${names.map(item)}</ul>` : html`<p class="meta">None.</p>`}
${pager(base, w.page, w.offset + names.length < total, q ? { q } : {})}`,
  });
}

/** POST /-/admin/repos/unadopted/{adopt|delete} */
export async function unadoptedPost(req: Request, res: Response): Promise<void> {
  const { owner, repo } = named(req, formOf(req));
  if (req.params.action !== 'adopt' && req.params.action !== 'delete') throw new NotFoundError();
  await adminUnadoptedAction(req.ctx.h, req.ctx.doer, owner, repo, req.params.action === 'adopt');
  redirectAfterPost(req, res, '-/admin/repos/unadopted');
}
