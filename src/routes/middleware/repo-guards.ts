import type { RequestHandler } from 'express';
import { ArchivedError, ForbiddenError } from '../../lib/errors';
import { ACCESS, type AccessMode, type Unit } from '../../services/permissions';
import { followUpsSettled } from '../../services/pull/pull-follow-queue';
import { lookupRepo, unitModeOf } from '../../services/repo/repos';

/**
 * Loads `{owner}/{repo}` with the caller's access mode into req.ctx.repo: 404 when the caller
 * may not see it, 307 to the new path after a rename (as Gitea's API does).
 */
export const assignRepo: RequestHandler = async (req, res, next) => {
  const owner = String(req.params.owner ?? '');
  const name = String(req.params.repo ?? '');
  const found = await lookupRepo(req.ctx.db, owner, name, req.ctx.doer, { held: req.ctx.heldRepo });
  if ('redirectTo' in found) {
    const from = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    const to = `/repos/${encodeURIComponent(found.redirectTo.owner)}/${encodeURIComponent(found.redirectTo.name)}`;
    const url = req.originalUrl.replace(new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i'), to);
    res.redirect(307, url);
    return;
  }
  if (req.ctx.scopes?.publicOnly && found.repo.is_private) {
    throw new ForbiddenError('token scope is limited to public repos');
  }
  req.ctx.repo = found;
  // What the last push did to the pull requests here is applied before anything is read.
  await followUpsSettled(req.ctx.db, found.repo.id);
  next();
};

const levelNames: Record<number, string> = { 1: 'read', 2: 'write', 3: 'admin', 4: 'owner' };

/** The caller needs at least `min` on the repository; readers without it see 403, as Gitea. */
export function repoAccess(min: AccessMode): RequestHandler {
  return (req, _res, next) => {
    const mode = req.ctx.repo?.mode ?? ACCESS.none;
    if (mode < min) throw new ForbiddenError(`user should have ${levelNames[min]} permission on the repository`);
    next();
  };
}

export const reqRepoReader = repoAccess(ACCESS.read);
export const reqRepoWriter = repoAccess(ACCESS.write);
export const reqRepoAdmin = repoAccess(ACCESS.admin);
export const reqRepoOwner = repoAccess(ACCESS.owner);

/** Writes to archived repositories answer 423. */
export const notArchived: RequestHandler = (req, _res, next) => {
  if (req.ctx.repo?.repo.is_archived) throw new ArchivedError('repo is archived');
  next();
};

/**
 * Gitea's reqRepoReader(unit) / reqRepoWriter(unit): the caller needs `min` on one unit of the
 * repository (an organization's team may grant issues but not code); repository admins pass.
 */
export function repoUnitAccess(unit: Unit, min: AccessMode): RequestHandler {
  return async (req, _res, next) => {
    const access = req.ctx.repo;
    const mode: number = access ? await unitModeOf(req.ctx.db, access, req.ctx.doer, unit) : ACCESS.none;
    if (mode < min) {
      throw new ForbiddenError(min >= ACCESS.write
        ? 'user should have a permission to write to a repo'
        : 'user should have specific read permission or be a repo admin or a site admin');
    }
    next();
  };
}

/** Code routes (contents, git data, commits, branches, tags, archives): the repo.code unit. */
export const reqCodeReader = repoUnitAccess('repo.code', ACCESS.read);
export const reqCodeWriter = repoUnitAccess('repo.code', ACCESS.write);
