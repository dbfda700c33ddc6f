import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { avatarUrl } from '../../convert/user';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { listVisibleOrgs } from '../../services/org/orgs';
import { searchVisibleUsers } from '../../services/user/user-settings';
import { pageWindow, searchForm, searchTerm } from './admin-layout';
import { pager, sendPage, webUrl, when } from './layout';

// /explore/users and /explore/organizations (Gitea's explore tabs): the accounts the visitor
// may see, by name (`q`), through the services of GET /users/search and GET /orgs. The three
// explore pages (repositories in owner-pages.ts) share Gitea's explore navbar: exploreTabs.

const PER_PAGE = 30;

export const exploreTabs = (req: Request, current: 'repos' | 'users' | 'organizations'): SafeHtml => {
  const tab = (name: typeof current, label: string) =>
    html`<a href="${webUrl(req.ctx.config, `explore/${name}`)}"${name === current ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Explore">${tab('repos', 'Repositories')}${tab('users', 'Users')}${tab('organizations', 'Organizations')}</nav>`;
};

function accountList(req: Request, accounts: User[]): SafeHtml {
  if (!accounts.length) return html`<p class="meta">Nothing found.</p>`;
  const { config } = req.ctx;
  const li = (u: User) => html`<li><img class="avatar" src="${avatarUrl(config, u)}" alt=""> <a href="${webUrl(config, encodePath(u.name))}">${u.name}</a>${u.full_name ? html` <span class="meta">${u.full_name}</span>` : ''}
${u.description ? html`<div class="description">${u.description}</div>` : ''}<div class="meta">Joined ${when(u.created_unix)}</div></li>`;
  return html`<ul class="list accounts">${accounts.map(li)}</ul>`;
}

function explorePage(req: Request, res: Response, kind: 'users' | 'organizations', r: { accounts: User[]; total: number; page: number; offset: number }): void {
  const q = searchTerm(req);
  const base = webUrl(req.ctx.config, `explore/${kind}`);
  const title = kind === 'users' ? 'Users' : 'Organizations';
  sendPage(req, res, {
    title: `Explore ${kind}`,
    body: html`<h1>Explore</h1>${exploreTabs(req, kind)}${searchForm(base, `Search ${kind}`, q)}
<h2>${title} <span class="count">${String(r.total)}</span></h2>${accountList(req, r.accounts)}
${pager(base, r.page, r.offset + r.accounts.length < r.total, q ? { q } : {})}`,
  });
}

/** GET /explore/users */
export async function exploreUsers(req: Request, res: Response): Promise<void> {
  const w = pageWindow(req, PER_PAGE);
  const { users, total } = await searchVisibleUsers(req.ctx.db, { viewer: req.ctx.doer, publicOnly: false, keyword: searchTerm(req), uid: 0, page: w });
  explorePage(req, res, 'users', { accounts: users, total, ...w });
}

/** GET /explore/organizations */
export async function exploreOrgs(req: Request, res: Response): Promise<void> {
  const w = pageWindow(req, PER_PAGE);
  const { orgs, total } = await listVisibleOrgs(req.ctx.db, req.ctx.doer, false, { ...w, keyword: searchTerm(req) || undefined });
  explorePage(req, res, 'organizations', { accounts: orgs, total, ...w });
}
