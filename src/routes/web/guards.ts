import type { Request, RequestHandler, Response } from 'express';
import { mustSetPasswordFirst } from '../../services/user/auth';
import { encodePath } from '../../lib/html';
import { ArchivedError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { hasScope } from '../../lib/scopes';
import { followUpsPending, followUpsSettled } from '../../services/pull/pull-follow-queue';
import { lookupRepo } from '../../services/repo/repos';
import { codeWritable, readableUnits, type WebUnit } from '../../services/web/units';
import { repoOf } from '../context';

// Guards of the web routes, in the API table's style: each does one check and either passes,
// redirects or throws. A page the visitor may not see is 404 (its existence is not told); one
// they see but may not use is 403.

/** Where a signed-in page sends a browser without a session. */
export const CHANGE_PASSWORD_PATH = '/user/settings/change_password';

/** A path on this server, or '' (an absolute URL, `//host`, `/\\host` lead elsewhere). */
export function localPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '';
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\x00-\x1f\x7f]/.test(value)) return '';
  return value;
}

/** `/path` under the root URL (which may carry a sub-path). */
export const rootPath = (req: Request, path: string): string => `${req.ctx.config.server.root_url}${path.replace(/^\//, '')}`;

export function loginUrl(req: Request): string {
  const back = localPath(req.method === 'GET' ? req.originalUrl : '');
  return rootPath(req, `/user/login${back && back !== '/' ? `?redirect_to=${encodeURIComponent(back)}` : ''}`);
}

const toLogin = (req: Request, res: Response): void => res.redirect(303, loginUrl(req));

/** A page for signed-in users: others are sent to sign in, and come back here after. */
export const signedInPage: RequestHandler = (req, res, next) => {
  if (!req.ctx.doer) return toLogin(req, res);
  next();
};

/** `[service] require_signin_view`: every page but signing in needs a signed-in user. */
export const siteView: RequestHandler = (req, res, next) => {
  if (req.ctx.config.service.require_signin_view && !req.ctx.doer) return toLogin(req, res);
  next();
};

/** A user who must set a password sees only the page that changes it, until they do. */
export const passwordChanged: RequestHandler = (req, res, next) => {
  if (req.ctx.signer && mustSetPasswordFirst(req.ctx.signer, req.ctx.auth === 'session')) return res.redirect(303, rootPath(req, CHANGE_PASSWORD_PATH));
  next();
};

/**
 * A token that may not read these categories, or only public ones, shows the pages an
 * anonymous visitor sees.
 */
function narrowViewer(categories: Parameters<typeof hasScope>[1][]): RequestHandler {
  return (req, _res, next) => {
    const scopes = req.ctx.scopes;
    if (scopes && (scopes.publicOnly || !categories.some((c) => hasScope(scopes, c, 'read')))) req.ctx.doer = null;
    next();
  };
}

export const repoViewer = narrowViewer(['repository']);
/** Attachments belong to issues as much as to repositories: a token reading either sees them. */
export const attachmentViewer = narrowViewer(['repository', 'issue']);

/** The units the repository's visitor reads, set by assignWebRepo. */
export const unitsOf = (res: Response): ReadonlySet<WebUnit> => res.locals.units as ReadonlySet<WebUnit>;

/**
 * `{owner}/{repo}` into req.ctx.repo. `{repo}.git` and renamed repositories redirect to the
 * current path with the rest of the URL kept; a hidden repository is 404. `viewerState`: the
 * chain shows the repository header (repo-social.ts), whose watch and star state of a signed-in
 * visitor's page is read with the repository, in one statement.
 */
function assignRepo(viewerState: boolean): RequestHandler {
  return async (req, res, next) => {
    const owner = String(req.params.owner);
    const asked = String(req.params.repo);
    const name = asked.endsWith('.git') ? asked.slice(0, -4) : asked;
    const viewerMarks = viewerState && req.method === 'GET' && !!req.ctx.doer;
    const found = await lookupRepo(req.ctx.db, owner, name, req.ctx.doer, { viewerMarks });
    if ('redirectTo' in found || name !== asked) {
      const to = 'redirectTo' in found ? found.redirectTo : { owner, name };
      res.redirect(name !== asked ? 301 : 307, movedUrl(req, to.owner, to.name));
      return;
    }
    req.ctx.repo = found;
    res.locals.units = await readableUnits(req.ctx.db, found, req.ctx.doer);
    // A page read right after a push shows the pull requests the push moved.
    if (followUpsPending(req.ctx.db, found.repo.id)) await followUpsSettled(req.ctx.db, found.repo.id);
    next();
  };
}

export const assignWebRepo: RequestHandler = assignRepo(false);
/** assignWebRepo for the chains that then show the repository header (repoSocial after it). */
export const assignPageRepo: RequestHandler = assignRepo(true);

function movedUrl(req: Request, owner: string, name: string): string {
  const [pathPart, query] = req.originalUrl.split(/\?(.*)/s, 2);
  const rest = pathPart!.split('/').slice(3).join('/');
  const base = `${req.ctx.config.server.root_url}${encodePath(owner)}/${encodePath(name)}`;
  return `${base}${rest ? `/${rest}` : ''}${query ? `?${query}` : ''}`;
}

/** The visitor must read this unit of the repository (enabled, and granted by teams); else 404. */
export function webUnit(unit: WebUnit): RequestHandler {
  return (_req, res, next) => {
    if (!unitsOf(res).has(unit)) throw new NotFoundError();
    next();
  };
}

/** Issues or pull requests: the labels and milestones pages serve either. */
export const issuesOrPulls: RequestHandler = (_req, res, next) => {
  const units = unitsOf(res);
  if (!units.has('repo.issues') && !units.has('repo.pulls')) throw new NotFoundError();
  next();
};

export const codeUnit = webUnit('repo.code');
export const issuesUnit = webUnit('repo.issues');
export const pullsUnit = webUnit('repo.pulls');
export const releasesUnit = webUnit('repo.releases');

/** Forms that change an archived repository's issues or pull requests are refused (423), as the API's. */
export const notArchived: RequestHandler = (req, _res, next) => {
  if (repoOf(req).repo.is_archived) throw new ArchivedError('This repository is archived: it takes no changes.');
  next();
};

/**
 * Forms that change files or branches: the visitor must write the code of a repository that
 * is neither archived nor a mirror; each case says so plainly (403: the page is visible).
 */
export const codeWriter: RequestHandler = async (req, _res, next) => {
  const access = repoOf(req);
  if (access.repo.is_archived) throw new ForbiddenError('This repository is archived: its files and branches cannot be changed.');
  if (access.repo.is_mirror) throw new ForbiddenError('This repository is a mirror: it changes only when it syncs.');
  if (!(await codeWritable(req.ctx.db, access, req.ctx.doer))) throw new ForbiddenError('You may not change the files of this repository.');
  next();
};

/** Guard sets of the groups: what every page shows needs, and what a signed-in page needs. */
export const viewing: readonly RequestHandler[] = [siteView, passwordChanged];
export const signedInViewing: readonly RequestHandler[] = [signedInPage, passwordChanged];

export { repoOf };
