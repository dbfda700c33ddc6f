import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { Hearth } from '../hearth';
import { AppError, UnauthorizedError } from '../lib/errors';
import { hasScope } from '../lib/scopes';
import { repoTreePage, type TreePage } from '../services/repo-web';
import { changeOwnPassword } from '../services/users';
import { authenticate } from './middleware/auth';
import { pathParam } from './table';

// The minimal web pages: `/{owner}/{repo}` and `/{owner}/{repo}/src/branch/{branch}` answer a
// small HTML listing of the branch's top-level tree (clients poll them after creating a
// repository). Mounted after the API, git, avatar and swagger routes so it shadows none of them.
// `/user/change_password` is where a user flagged must_change_password sets a new one (the API
// answers them 403 until then, as Gitea).

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const encodePath = (s: string) => s.split('/').map(encodeURIComponent).join('/');

const CSP = 'default-src \'none\'; style-src \'unsafe-inline\'; base-uri \'none\'; form-action \'none\'';
const FORM_CSP = CSP.replace('form-action \'none\'', 'form-action \'self\'') + '; frame-ancestors \'none\'';

function sendPage(res: Response, status: number, title: string, body: string, csp = CSP): void {
  res.status(status)
    .setHeader('Content-Security-Policy', csp)
    .setHeader('X-Content-Type-Options', 'nosniff')
    .type('html')
    .send(`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`);
}

function treeBody(page: Extract<TreePage, { access: unknown }>): string {
  const { owner, repo } = page.access;
  const full = `${owner.name}/${repo.name}`;
  const head = `<h1><a href="/${encodePath(owner.name)}/${encodePath(repo.name)}">${escapeHtml(full)}</a></h1>`
    + (repo.description ? `\n<p class="description">${escapeHtml(repo.description)}</p>` : '');
  if (page.empty) return `${head}\n<p class="empty">This repository is empty.</p>`;
  // Directories first, then files, each by name, as Gitea lists a tree.
  const sorted = [...page.entries].sort((a, b) => Number(b.kind === 'tree') - Number(a.kind === 'tree') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const items = sorted.map((e) => `<li class="${e.kind}">${escapeHtml(e.name)}${e.kind === 'tree' ? '/' : ''}</li>`);
  return `${head}\n<p class="branch">Branch: <code>${escapeHtml(page.branch)}</code></p>\n<ul class="tree">\n${items.join('\n')}\n</ul>`;
}

/** Web pages show what an anonymous visitor sees unless the credentials may read repositories. */
function viewerOf(req: Request) {
  const scopes = req.ctx.scopes;
  if (scopes && (scopes.publicOnly || !hasScope(scopes, 'repository', 'read'))) return null;
  return req.ctx.doer;
}

const PASSWORD_FORM = `<form method="post" action="change_password">
<p><label>Current password <input type="password" name="old_password" autocomplete="current-password" required></label></p>
<p><label>New password <input type="password" name="password" autocomplete="new-password" required></label></p>
<p><label>Confirm the new password <input type="password" name="retype" autocomplete="new-password" required></label></p>
<p><button type="submit">Change password</button></p>
</form>`;

/** The page needs a signed-in caller: a 401 makes the browser ask for credentials. */
function signedIn(req: Request, _res: Response, next: () => void): void {
  if (!req.ctx.signer) throw new UnauthorizedError();
  next();
}

function passwordRoutes(h: Hearth, router: Router): void {
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  router.get('/user/change_password', authenticate(), signedIn, (req, res) => {
    const ask = req.ctx.signer!.must_change_password ? '<p>You must change your password before going on.</p>\n' : '';
    sendPage(res, 200, 'Change your password', `<h1>Change your password</h1>\n${ask}${PASSWORD_FORM}`, FORM_CSP);
  });
  router.post('/user/change_password', form, authenticate(), signedIn, async (req, res) => {
    await changeOwnPassword(h.db, h.config, req.ctx.signer!, req.body ?? {});
    sendPage(res, 200, 'Password changed', '<h1>Password changed</h1>\n<p>Your password has been changed.</p>');
  });
}

export function webRouter(h: Hearth): Router {
  const router = express.Router();
  passwordRoutes(h, router);

  const show = (branchOf: (req: Request) => string | null) => async (req: Request, res: Response, next: () => void) => {
    const owner = String(req.params.owner);
    if (owner === 'api') return next();
    const page = await repoTreePage(h.db, h.config, owner, String(req.params.repo), viewerOf(req), branchOf(req));
    if ('redirectTo' in page) {
      const rest = req.originalUrl.split('/').slice(3).join('/');
      const to = `/${encodePath(page.redirectTo.owner)}/${encodePath(page.redirectTo.name)}`;
      return res.redirect(307, rest ? `${to}/${rest}` : to);
    }
    sendPage(res, 200, `${page.access.owner.name}/${page.access.repo.name}`, treeBody(page));
  };

  router.get('/:owner/:repo', authenticate(), show(() => null));
  router.get('/:owner/:repo/src/branch/*branch', authenticate(), show((req) => pathParam(req, 'branch')));

  const pageErrors: ErrorRequestHandler = (err, _req, res, next) => {
    if (!(err instanceof AppError) || res.headersSent) return next(err);
    if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="Hearth"');
    const title = err.status === 404 ? 'Page Not Found' : `Error ${err.status}`;
    sendPage(res, err.status, title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(err.message)}</p>`);
  };
  router.use(pageErrors);
  return router;
}
