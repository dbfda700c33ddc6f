import type { RequestHandler } from 'express';
import { encodePath } from '../../lib/html';
import { ForbiddenError } from '../../lib/errors';
import { lookupOrg } from '../../services/org/orgs';
import { ACCESS } from '../../services/permissions';
import { repoOf } from './guards';
import * as pages from './runner-pages';
import { get, group, post, type WebGroup, type WebRoute } from './table';

// The runners pages' groups at each level, each with its guard naming the scope: a repository's
// admins, an organization's owners (a hidden organization is 404, as its other pages), site
// admins. Others who see the thing get 403.

const routes = (base: string): WebRoute[] => [
  get(base, pages.runnersPage),
  post(`${base}/reset_registration_token`, pages.resetToken),
  get(`${base}/:id`, pages.runnerPage),
  post(`${base}/:id`, pages.runnerEdit),
  get(`${base}/:id/delete`, pages.runnerDeleteConfirm),
  post(`${base}/:id/delete`, pages.runnerDelete),
];

const siteAdmin: RequestHandler = (req, res, next) => {
  if (!req.ctx.doer?.is_admin) throw new ForbiddenError('Only site administrators manage the site\'s runners.');
  res.locals.runnerLevel = { scope: { ownerId: 0, repoId: 0 }, base: '-/admin/actions/runners', heading: 'the whole site' } satisfies pages.RunnerLevel;
  next();
};

const orgOwner: RequestHandler = async (req, res, next) => {
  const found = await lookupOrg(req.ctx.db, String(req.params.org), req.ctx.doer);
  if (!req.ctx.doer?.is_admin && !found.isOwner) throw new ForbiddenError('Only owners of this organization manage its runners.');
  const base = `org/${encodePath(found.org.name)}/settings/actions/runners`;
  res.locals.runnerLevel = { scope: { ownerId: found.org.id, repoId: 0 }, base, heading: found.org.name } satisfies pages.RunnerLevel;
  next();
};

const repoAdmin: RequestHandler = (req, res, next) => {
  const access = repoOf(req);
  if (access.mode < ACCESS.admin) throw new ForbiddenError('Only administrators of this repository manage its runners.');
  const base = `${encodePath(access.owner.name)}/${encodePath(access.repo.name)}/settings/actions/runners`;
  res.locals.runnerLevel = { scope: { ownerId: 0, repoId: access.repo.id }, base, heading: `${access.owner.name}/${access.repo.name}` } satisfies pages.RunnerLevel;
  next();
};

/** The site's and organizations' runners: fixed first segments, mounted before `/{owner}/{repo}`. */
export const ownerRunnerGroups = (signedIn: readonly RequestHandler[]): WebGroup[] => [
  group('admin-runners', [...signedIn, siteAdmin], routes('/-/admin/actions/runners')),
  group('org-runners', [...signedIn, orgOwner], routes('/org/:org/settings/actions/runners')),
];

/** A repository's runners: `signedInRepo` is index.ts's signed-in repository chain. */
export const repoRunnerGroup = (signedInRepo: readonly RequestHandler[]): WebGroup =>
  group('repo-runners', [...signedInRepo, repoAdmin], routes('/:owner/:repo/settings/actions/runners'));
