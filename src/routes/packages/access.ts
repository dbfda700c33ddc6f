import type { Request, RequestHandler, Response } from 'express';
import type { User } from '../../db/schema';
import { AppError, ForbiddenError } from '../../lib/errors';
import { hasScope } from '../../lib/scopes';
import { ACCESS, type AccessMode } from '../../services/permissions';
import { VISIBILITY } from '../../services/visibility';

// Gitea's reqPackageAccess (routers/api/packages/api.go): a token needs read:package or
// write:package, and the caller the mode; every refusal is 401 with the realm below, signed-in
// or not (as Gitea), except a public-only token on a private owner (403).

export const PACKAGE_REALM = 'Basic realm="Gitea Package API"';

export class PackageUnauthorizedError extends AppError {
  constructor(message = 'user should have specific permission or be a site admin') { super(401, message); }
}

/** The owner of the request's packages (set by the packages router). */
export const packageOwner = (req: Request): User => req.ctx.contextUser!;
/** The caller's mode on the owner's packages (set by the packages router). */
export const packageAccess = (res: Response): AccessMode => res.locals.packageAccess as AccessMode;

/** Throws unless the caller may read ('read') or write ('write') the owner's packages. */
export function assertPackageAccess(req: Request, res: Response, level: 'read' | 'write'): void {
  const scopes = req.ctx.scopes;
  if (scopes) {
    if (!hasScope(scopes, 'package', level)) throw new PackageUnauthorizedError();
    if (scopes.publicOnly && packageOwner(req).visibility === VISIBILITY.private) {
      throw new ForbiddenError('token scope is limited to public packages');
    }
  }
  const need = level === 'read' ? ACCESS.read : ACCESS.write;
  if (packageAccess(res) < need && !req.ctx.doer?.is_admin) throw new PackageUnauthorizedError();
}

/** The guard form of assertPackageAccess, for a registry's routes. */
export const reqPackageAccess = (level: 'read' | 'write'): RequestHandler => (req, res, next) => {
  assertPackageAccess(req, res, level);
  next();
};
