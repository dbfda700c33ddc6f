import type { Request, RequestHandler, Response } from 'express';
import { ForbiddenError } from '../../lib/errors';
import { html, raw, type SafeHtml } from '../../lib/html';
import type { FieldErrors } from './forms';
import { rootPath } from './guards';
import { sendPage } from './layout';

// The frame of the site administration pages (Gitea's /-/admin/*): a named navigation to each
// area beside the page, and the fixed message a form's 303 names (`?done=`, never request text).

export type AdminTab = 'dashboard' | 'users' | 'orgs' | 'repos' | 'hooks' | 'audit' | 'config';

const TABS: [AdminTab, string, string][] = [
  ['dashboard', 'Dashboard', '/-/admin'],
  ['users', 'User accounts', '/-/admin/users'],
  ['orgs', 'Organizations', '/-/admin/orgs'],
  ['repos', 'Repositories', '/-/admin/repos'],
  ['hooks', 'Webhooks', '/-/admin/hooks'],
  ['audit', 'Audit log', '/-/admin/audit-logs'],
  ['config', 'Configuration', '/-/admin/config'],
];

const DONE: Record<string, string> = {
  'cron-started': 'The task has been started.',
  'user-created': 'The account has been created.',
  'user-updated': 'The account has been updated.',
  'user-renamed': 'The account has been renamed.',
  'user-deleted': 'The account has been deleted.',
};

/**
 * Site admins only, as Gitea's adminReq: a visitor without a session signs in first (the
 * signed-in guard before this one), a signed-in user who is not an admin gets 403.
 */
export const siteAdminPage: RequestHandler = (req, _res, next) => {
  if (!req.ctx.doer?.is_admin) throw new ForbiddenError('Only site administrators may open this page.');
  next();
};

export type AdminView = { tab: AdminTab; title: string; body: SafeHtml; status?: number };

export function adminPage(req: Request, res: Response, view: AdminView): void {
  const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
  const nav = TABS.map(([tab, label, path]) => html`<li><a href="${rootPath(req, path)}"${tab === view.tab ? raw(' aria-current="page"') : ''}>${label}</a></li>`);
  sendPage(req, res, {
    status: view.status,
    title: view.title,
    body: html`<div class="settings"><nav class="settings-nav" aria-label="Site administration"><ul>${nav}</ul></nav>
<div class="settings-body"><h1>${view.title}</h1>${done ? html`<div class="flash" role="status">${done}</div>` : ''}
${view.body}</div></div>`,
  });
}

export type Option = { value: string; label: string };

/** A labelled <select>, its error tied to it. */
export function selectField(name: string, label: string, options: Option[], chosen: string, errors: FieldErrors = {}): SafeHtml {
  const id = `f-${name}`;
  const error = errors[name];
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${label}</label>
<select id="${id}" name="${name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${options.map((o) => html`<option value="${o.value}"${o.value === chosen ? raw(' selected') : ''}>${o.label}</option>`)}</select>
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</div>`;
}

/** `?page=` (1-based; anything else is the first page) as an offset window. */
export function pageWindow(req: Request, limit: number): { page: number; offset: number; limit: number } {
  const n = Number.parseInt(String(req.query.page ?? ''), 10);
  const page = Number.isFinite(n) && n > 0 ? Math.min(n, 100000) : 1;
  return { page, offset: (page - 1) * limit, limit };
}

/** `?q=`, trimmed and bounded. */
export const searchTerm = (req: Request): string => (typeof req.query.q === 'string' ? req.query.q.trim().slice(0, 200) : '');

/** A GET search form over a list. */
export const searchForm = (action: string, label: string, q: string): SafeHtml =>
  html`<form method="get" action="${action}" role="search" aria-label="${label}"><label for="list-q">Search</label> <input id="list-q" type="search" name="q" value="${q}"> <button type="submit">Search</button></form>`;
