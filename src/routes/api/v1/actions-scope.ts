import type { Request, RequestHandler } from 'express';
import { ForbiddenError } from '../../../lib/errors';
import type { ActionsScope } from '../../../models/actions-secrets';
import { doerOf, orgOf, repoOf } from '../../context';

// Whose actions settings a request manages, by the kind of path (guards ran before).
export const actionsScopes = {
  repo: (req: Request): ActionsScope => ({ ownerId: 0, repoId: repoOf(req).repo.id }),
  org: (req: Request): ActionsScope => ({ ownerId: orgOf(req).org.id, repoId: 0 }),
  /** The signed-in user's own. */
  user: (req: Request): ActionsScope => ({ ownerId: doerOf(req).id, repoId: 0 }),
  admin: (): ActionsScope => ({ ownerId: 0, repoId: 0 }),
};
export type ScopeOf = (req: Request) => ActionsScope;

/** Gitea's rejectPublicOnly on /user/actions: a public-only token manages no private settings. */
export const rejectPublicOnly: RequestHandler = (req, _res, next) => {
  if (req.ctx.scopes?.publicOnly) throw new ForbiddenError('token scope is limited to public users');
  next();
};
