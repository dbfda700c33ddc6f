import type { RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '../../lib/errors';
import { getVisibleUser } from '../../services/user/users';
import { redirectRenamedOwner } from './renamed-owner';
import { VISIBILITY } from '../../services/visibility';
import { hasScope, scopeNames, type ScopeCategory } from '../../lib/scopes';

// Guards are the visible checks of the route table; each either passes or throws a domain error.

/** Gitea's reqToken: any signed-in caller (password or token). */
export const signedIn: RequestHandler = (req, _res, next) => {
  if (!req.ctx.doer) throw new UnauthorizedError('token is required');
  next();
};

/** A token must carry read (GET/HEAD) or write (others) on one of the categories. */
export function scope(...categories: ScopeCategory[]): RequestHandler {
  const guard: RequestHandler = (req, _res, next) => {
    const scopes = req.ctx.scopes;
    if (!scopes) return next();
    const level = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write';
    if (categories.some((c) => hasScope(scopes, c, level))) return next();
    const required = categories.map((c) => `${level}:${c}`).join(' ');
    throw new ForbiddenError(
      `token does not have at least one of required scope(s), required=[${required}], token scope=${scopeNames(scopes).join(',')}`,
    );
  };
  return Object.assign(guard, { scopeCategories: categories });
}

export const siteAdmin: RequestHandler = (req, _res, next) => {
  if (!req.ctx.doer) throw new UnauthorizedError('token is required');
  if (!req.ctx.doer.is_admin) throw new ForbiddenError('You must be an admin to perform this action.');
  next();
};

/** The `{username}` of the path is the caller, or the caller is a site admin. */
export const selfOrAdmin: RequestHandler = (req, _res, next) => {
  const doer = req.ctx.doer;
  if (!doer) throw new UnauthorizedError('token is required');
  const name = String(req.params.username ?? '').toLowerCase();
  if (!doer.is_admin && doer.lower_name !== name) {
    throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
  }
  next();
};

/** Token management needs the password: a token may not mint or revoke tokens. */
export const basicAuthOnly: RequestHandler = (req, _res, next) => {
  if (req.ctx.auth !== 'basic') throw new UnauthorizedError('auth required');
  next();
};

/** Loads `{username}` into req.ctx.contextUser: 404 when missing or hidden from the caller. */
export const assignUser: RequestHandler = async (req, res, next) => {
  const name = String(req.params.username ?? '');
  const user = await getVisibleUser(req.ctx.db, name, req.ctx.doer).catch(async (err: unknown) => {
    if (await redirectRenamedOwner(req, res, name)) return null;
    throw err;
  });
  if (!user) return;
  if (req.ctx.scopes?.publicOnly && user.visibility !== VISIBILITY.public) {
    throw new ForbiddenError('token scope is limited to public users');
  }
  req.ctx.contextUser = user;
  next();
};
