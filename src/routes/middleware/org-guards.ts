import type { RequestHandler } from 'express';
import { redirectRenamedOwner } from './renamed-owner';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { lookupOrg } from '../../services/org/orgs';
import { VISIBILITY } from '../../services/visibility';

/**
 * Loads `{org}` with the caller's role into req.ctx.org: 404 when it does not exist or the
 * caller may not see it; public-only tokens reach public organizations only (Gitea's
 * checkTokenPublicOnly).
 */
export const assignOrg: RequestHandler = async (req, res, next) => {
  const name = String(req.params.org ?? '');
  const found = await lookupOrg(req.ctx.db, name, req.ctx.doer).catch(async (err: unknown) => {
    if (await redirectRenamedOwner(req, res, name)) return null;
    throw err;
  });
  if (!found) return;
  if (req.ctx.scopes?.publicOnly && found.org.visibility !== VISIBILITY.public) {
    throw new ForbiddenError('token scope is limited to public orgs');
  }
  req.ctx.org = found;
  next();
};

/**
 * Gitea's reqOrgOwnership / reqOrgMembership: site admins always pass; others need the role.
 * Denied callers get 403 on `/orgs/{org}` routes; routes that reach the organization through
 * something else (a team) pass `'notFound'` to answer 404 as Gitea does there.
 */
export function orgRole(role: 'owner' | 'member', deny: 'forbidden' | 'notFound' = 'forbidden'): RequestHandler {
  return (req, _res, next) => {
    const doer = req.ctx.doer;
    if (!doer) throw new UnauthorizedError('token is required');
    const org = req.ctx.org;
    if (!org) throw new Error('orgRole guard without an assigned organization');
    if (doer.is_admin || (role === 'owner' ? org.isOwner : org.isMember)) return next();
    if (deny === 'notFound') throw new NotFoundError();
    throw new ForbiddenError(role === 'owner' ? 'Must be an organization owner' : 'Must be an organization member');
  };
}

export const reqOrgOwner = orgRole('owner');
export const reqOrgMember = orgRole('member');
