import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import { BadRequestError } from '../../lib/errors';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { deleteBranch } from '../../services/repo/branches';
import { restoreBranch } from '../../services/repo/deleted-branches';
import type { RepoAccess } from '../../services/repo/repos';
import { listTags } from '../../services/repo/tags';
import { branchesPage, type BranchRow } from '../../services/web/branch-pages';
import { codeWritable, unitReadable } from '../../services/web/units';
import { doerOf, repoOf } from '../context';
import { queryInt, queryString } from '../query';
import { confirmPage, csrfInput, redirectAfterPost } from './forms';
import { pager, repoLink, when } from './layout';
import { repoPage } from './repo-view';

// `/{owner}/{repo}/branches` (ahead/behind the default branch, "New pull request", delete with
// a confirmation page, restore a deleted branch: Gitea's POST branches/delete and
// branches/restore) and `/{owner}/{repo}/tags`.

const PER_PAGE = 20;
/** `{owner}/{repo}/{rest}` relative to the root URL, for redirects. */
const path = (access: RepoAccess, rest = 'branches') => `${encodePath(access.owner.name)}/${encodePath(access.repo.name)}/${rest}`;

type Can = { write: boolean; pulls: boolean };

function branchRow(req: Request, access: RepoAccess, b: BranchRow, can: Can, isDefault: boolean): SafeHtml {
  const { config } = req.ctx;
  const counts = isDefault ? html`<span class="badge">default</span>` : html`<span class="meta">${b.ahead} ahead · ${b.behind} behind</span>`;
  const compare = can.pulls && !isDefault && b.ahead > 0
    ? html` <a class="button" href="${repoLink(config, access, `compare/${encodePath(access.repo.default_branch)}...${encodePath(b.name)}`)}">New pull request</a>` : '';
  const del = can.write && !isDefault && !b.rule
    ? html` <a class="button" href="${repoLink(config, access, `branches/delete?name=${encodeURIComponent(b.name)}`)}" aria-label="Delete branch ${b.name}">Delete</a>` : '';
  const subject = b.commit.message.split('\n', 1)[0];
  return html`<li><a href="${repoLink(config, access, `src/branch/${encodePath(b.name)}`)}"><strong>${b.name}</strong></a> ${b.rule ? html`<span class="badge">protected</span> ` : ''}${counts}
<div class="meta"><a href="${repoLink(config, access, `commit/${b.commit.sha}`)}"><code>${b.commit.sha.slice(0, 10)}</code></a> ${subject} · ${when(b.commit.committer.date)}</div>
<div class="actions">${compare}${del}</div></li>`;
}

function deletedList(req: Request, res: Response, access: RepoAccess, page: Awaited<ReturnType<typeof branchesPage>>, can: Can): SafeHtml {
  if (!page.deleted.length) return html``;
  const { config } = req.ctx;
  const rows = page.deleted.map((d) => {
    const who = page.deleters.get(d.deleted_by_id)?.name ?? 'someone';
    const restore = can.write
      ? html`<form method="post" action="${repoLink(config, access, 'branches/restore')}">${csrfInput(req, res)}<input type="hidden" name="branch_id" value="${d.id}"><input type="hidden" name="name" value="${d.name}"><button type="submit" aria-label="Restore branch ${d.name}">Restore</button></form>` : '';
    return html`<li><del>${d.name}</del> <span class="meta">deleted by ${who} ${when(d.deleted_unix)} · was <code>${d.commit_id.slice(0, 10)}</code></span>${restore}</li>`;
  });
  return html`<h2>Deleted branches</h2><ul class="list branches deleted">${rows}</ul>`;
}

/** GET /{owner}/{repo}/branches */
export async function branches(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config, db, doer } = req.ctx;
  const n = Math.max(1, queryInt(req, 'page') ?? 1);
  const [page, write, pulls] = await Promise.all([
    branchesPage(req.ctx.h, access, doer, { offset: (n - 1) * PER_PAGE, limit: PER_PAGE }),
    codeWritable(db, access, doer), unitReadable(db, access, doer, 'repo.pulls'),
  ]);
  const can = { write, pulls };
  const def = page.defaultBranch ? html`<h2>Default branch</h2><ul class="list branches">${branchRow(req, access, page.defaultBranch, can, true)}</ul>` : '';
  const list = page.branches.length ? html`<ul class="list branches">${page.branches.map((b) => branchRow(req, access, b, can, false))}</ul>` : html`<p class="meta">No other branches.</p>`;
  const more = n * PER_PAGE < page.total + 1;
  repoPage(req, res, 'Branches', 'code', html`${def}<h2>Branches <span class="count">${page.total}</span></h2>${list}${pager(repoLink(config, access, 'branches'), n, more)}
${deletedList(req, res, access, page, can)}`);
}

const branchName = (req: Request): string => {
  const name = queryString(req, 'name') ?? (typeof req.body?.name === 'string' ? req.body.name : '');
  if (!name) throw new BadRequestError('Which branch? The form names none.');
  return name;
};

/** GET /{owner}/{repo}/branches/delete?name=: what deleting does, and the button that does it. */
export function deleteForm(req: Request, res: Response): void {
  const access = repoOf(req);
  const { config } = req.ctx;
  const name = branchName(req);
  confirmPage(req, res, {
    title: `Delete branch ${name}`,
    message: html`The branch <code>${name}</code> of ${access.owner.name}/${access.repo.name} will be deleted. Its commits stay until git cleans up, and the branches page can restore it until then.`,
    action: repoLink(config, access, `branches/delete?name=${encodeURIComponent(name)}`),
    button: 'Delete branch', cancel: repoLink(config, access, 'branches'),
  });
}

/** POST /{owner}/{repo}/branches/delete?name= (Gitea's DeleteBranchPost), through the API's service. */
export async function deletePost(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  await deleteBranch(req.ctx.h, access, doerOf(req), branchName(req));
  redirectAfterPost(req, res, path(access));
}

/** POST /{owner}/{repo}/branches/restore (branch_id, as Gitea's RestoreBranchPost). */
export async function restorePost(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const id = Number(req.body?.branch_id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new BadRequestError('Which deleted branch? The form names none.');
  const restored = await restoreBranch(req.ctx.h, access, doerOf(req), id);
  redirectAfterPost(req, res, path(access, `src/branch/${encodePath(restored.name)}`));
}

function tagRow(config: Config, access: RepoAccess, t: Awaited<ReturnType<typeof listTags>>['items'][number]): SafeHtml {
  const archive = (ext: string) => repoLink(config, access, `archive/${encodePath(t.name)}.${ext}`);
  return html`<li><a href="${repoLink(config, access, `src/tag/${encodePath(t.name)}`)}"><strong>${t.name}</strong></a> <span class="meta">${when(t.unix)}</span>
<div class="meta"><a href="${repoLink(config, access, `commit/${t.commit}`)}"><code>${t.commit.slice(0, 10)}</code></a>${t.annotated && t.message ? html` · ${t.message.split('\n', 1)[0]}` : ''} · <a href="${archive('zip')}">ZIP</a> · <a href="${archive('tar.gz')}">TAR.GZ</a></div></li>`;
}

/** GET /{owner}/{repo}/tags */
export async function tags(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const n = Math.max(1, queryInt(req, 'page') ?? 1);
  const { items, total } = await listTags(config, access, { offset: (n - 1) * 50, limit: 50 });
  const list = items.length ? html`<ul class="list tags">${items.map((t) => tagRow(config, access, t))}</ul>` : html`<p class="meta">No tags.</p>`;
  repoPage(req, res, 'Tags', 'code', html`<h2>Tags <span class="count">${total}</span></h2>${list}${pager(repoLink(config, access, 'tags'), n, n * 50 < total)}`);
}
