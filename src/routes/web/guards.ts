import type { Request, RequestHandler, Response } from 'express';
import { encodePath } from '../../lib/html';
import { NotFoundError, UnauthorizedError } from '../../lib/errors';
import { hasScope } from '../../lib/scopes';
import { followUpsSettled } from '../../services/pull/pull-follow-queue';
import { lookupRepo } from '../../services/repo/repos';
import { readableUnits, type WebUnit } from '../../services/web/units';
import { authenticate } from '../middleware/auth';
import { repoOf } from '../context';

// Guards of the web routes, in the API table's style: each does one check and either passes,
// redirects or throws. A page the visitor may not see is 404 (its existence is not told).

/**
 * Who is looking: credentials by Basic or token as on the API (sessions come with the web
 * interface). A token that may not read repositories, or only public ones, shows the pages an
 * anonymous visitor sees.
 */
function narrowViewer(categories: Parameters<typeof hasScope>[1][]): RequestHandler {
  return (req, _res, next) => {
    const scopes = req.ctx.scopes;
    if (scopes && (scopes.publicOnly || !categories.some((c) => hasScope(scopes, c, 'read')))) req.ctx.doer = null;
    next();
  };
}

export const viewer: RequestHandler[] = [authenticate(), narrowViewer(['repository'])];

/** Attachments belong to issues as much as to repositories: a token reading either sees them. */
export const attachmentViewer: RequestHandler[] = [authenticate(), narrowViewer(['repository', 'issue'])];

/** The page needs a signed-in visitor: a 401 makes the browser ask for credentials. */
export const signedIn: RequestHandler = (req, _res, next) => {
  if (!req.ctx.signer) throw new UnauthorizedError();
  next();
};

/** The units the repository's visitor reads, set by assignWebRepo. */
export const unitsOf = (res: Response): ReadonlySet<WebUnit> => res.locals.units as ReadonlySet<WebUnit>;

/**
 * `{owner}/{repo}` into req.ctx.repo. `{repo}.git` and renamed repositories redirect to the
 * current path with the rest of the URL kept; a hidden repository is 404.
 */
export const assignWebRepo: RequestHandler = async (req, res, next) => {
  const owner = String(req.params.owner);
  const asked = String(req.params.repo);
  const name = asked.endsWith('.git') ? asked.slice(0, -4) : asked;
  const found = await lookupRepo(req.ctx.db, owner, name, req.ctx.doer);
  if ('redirectTo' in found || name !== asked) {
    const to = 'redirectTo' in found ? found.redirectTo : { owner, name };
    res.redirect(name !== asked ? 301 : 307, movedUrl(req, to.owner, to.name));
    return;
  }
  req.ctx.repo = found;
  res.locals.units = await readableUnits(req.ctx.db, found, req.ctx.doer);
  // A page read right after a push shows the pull requests the push moved.
  await followUpsSettled(found.repo.id);
  next();
};

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

export { repoOf };
