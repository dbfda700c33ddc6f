import type { Request, RequestHandler, Response } from 'express';
import { toApiPackage, toApiPackageFile } from '../../../convert/package';
import { ForbiddenError } from '../../../lib/errors';
import { packageAccessMode } from '../../../services/packages/access';
import { linkPackage, unlinkPackage } from '../../../services/packages/link';
import { deleteVersion } from '../../../services/packages/packages';
import { getFilesOfVersion, getVersion, packageView } from '../../../services/packages/queries';
import { latestPackageView, packageVersionViews, searchPackageViews, visiblePackageOwner } from '../../../services/packages/views';
import { ACCESS } from '../../../services/permissions';
import { VISIBILITY } from '../../../services/visibility';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';

// /api/v1/packages/{owner}/... (Gitea's routers/api/v1/packages): the owner must be visible to
// the caller (404), reading needs read on its packages and writing write (403, as Gitea's API).

const owner = (req: Request) => req.ctx.contextUser!;
const p = (req: Request, name: string) => String(req.params[name] ?? '');

/** Gitea's UserAssignmentAPI + PackageAssignmentAPI + reqPackageAccess(read) + checkTokenPublicOnly. */
export const assignPackageOwner: RequestHandler = async (req, res, next) => {
  const user = await visiblePackageOwner(req.ctx.db, p(req, 'owner'), req.ctx.doer);
  if (req.ctx.scopes?.publicOnly && user.visibility !== VISIBILITY.public) throw new ForbiddenError('token scope is limited to public users');
  req.ctx.contextUser = user;
  res.locals.packageAccess = await packageAccessMode(req.ctx.db, user, req.ctx.doer);
  if (res.locals.packageAccess < ACCESS.read) throw new ForbiddenError('user should have specific permission or be a site admin');
  next();
};

export const reqPackageWriter: RequestHandler = (_req, res, next) => {
  if (res.locals.packageAccess < ACCESS.write) throw new ForbiddenError('user should have specific permission or be a site admin');
  next();
};

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await searchPackageViews(req.ctx.db, owner(req), req.ctx.doer, {
    type: queryString(req, 'type') || undefined, query: queryString(req, 'q') || undefined, offset: page.offset, limit: page.limit,
  });
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => toApiPackage(req.ctx.config, v, req.ctx.doer)));
}

export async function versions(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await packageVersionViews(req.ctx.db, owner(req), req.ctx.doer, p(req, 'type'), p(req, 'name'), page);
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => toApiPackage(req.ctx.config, v, req.ctx.doer)));
}

export async function latest(req: Request, res: Response): Promise<void> {
  const view = await latestPackageView(req.ctx.db, owner(req), req.ctx.doer, p(req, 'type'), p(req, 'name'));
  res.json(toApiPackage(req.ctx.config, view, req.ctx.doer));
}

const versionOf = (req: Request) => getVersion(req.ctx.db, owner(req), p(req, 'type'), p(req, 'name'), p(req, 'version'));

export async function get(req: Request, res: Response): Promise<void> {
  const { pkg, version } = await versionOf(req);
  const view = await packageView(req.ctx.db, pkg, version, owner(req), req.ctx.doer);
  res.json(toApiPackage(req.ctx.config, view, req.ctx.doer));
}

export async function remove(req: Request, res: Response): Promise<void> {
  const { version } = await versionOf(req);
  await deleteVersion(req.ctx.h, req.ctx.doer!, version);
  res.status(204).end();
}

export async function files(req: Request, res: Response): Promise<void> {
  const { version } = await versionOf(req);
  res.json((await getFilesOfVersion(req.ctx.db, version)).map((f) => toApiPackageFile(f.file, f.blob)));
}

export async function link(req: Request, res: Response): Promise<void> {
  await linkPackage(req.ctx.db, req.ctx.doer!, owner(req), p(req, 'type'), p(req, 'name'), p(req, 'repo_name'));
  res.status(201).end();
}

export async function unlink(req: Request, res: Response): Promise<void> {
  await unlinkPackage(req.ctx.db, req.ctx.doer!, owner(req), p(req, 'type'), p(req, 'name'));
  // Gitea's handler answers 204 (its description says 201).
  res.status(204).end();
}
