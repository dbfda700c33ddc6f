import type { RequestHandler } from 'express';
import { packageOwnerFor } from '../../services/web/package-pages';
import * as pages from './package-pages';
import { get, group, post, type WebGroup } from './table';

// The packages pages' groups (Gitea's /{owner}/-/packages routes), mounted before `/{owner}`
// and the repository groups. Every route finds the owner first: 404 when the visitor may not
// see it or read its packages; the writers' forms check the write mode (403) in their handlers.

const packageOwner: RequestHandler = async (req, res, next) => {
  res.locals.packageOwner = await packageOwnerFor(req.ctx.db, String(req.params.owner), req.ctx.doer);
  next();
};

const P = '/:owner/-/packages';
const V = `${P}/:type/:name/:version`;

export function packageGroups(page: readonly RequestHandler[], signedIn: readonly RequestHandler[]): WebGroup[] {
  return [
    group('packages', [...page, packageOwner], [
      get(P, pages.packagesList),
      get(`${P}/:type/:name`, pages.packageVersion),
      get(V, pages.packageVersion),
      get(`${V}/files/:id`, pages.packageFile),
    ]),
    group('packages-write', [...signedIn, packageOwner], [
      post(`${P}/:type/:name/-/link`, pages.linkPost),
      post(`${P}/:type/:name/-/unlink`, pages.unlinkPost),
      get(`${V}/delete`, pages.deleteConfirm),
      post(`${V}/delete`, pages.deletePost),
    ]),
  ];
}
