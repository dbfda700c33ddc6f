import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { setPackageRepo } from '../../models/package';
import { getRepoById, getRepoByOwnerAndName } from '../../models/repo';
import { accessMode, ACCESS } from '../permissions';
import { getPackage } from './queries';

// Linking a package to a repository of its owner (Gitea's LinkToRepository / UnlinkFromRepository):
// the caller needs write on the repository's packages unit.

async function assertMayLink(db: DB, doer: User, owner: User, repo: Parameters<typeof accessMode>[2]): Promise<void> {
  if ((await accessMode(db, doer, repo, owner, 'repo.packages')) < ACCESS.write) {
    throw new ForbiddenError('no permission to link this package and repository');
  }
}

export async function linkPackage(db: DB, doer: User, owner: User, type: string, name: string, repoName: string): Promise<void> {
  const pkg = await getPackage(db, owner, type, name);
  const repo = await getRepoByOwnerAndName(db, owner.id, repoName);
  if (!repo) throw new NotFoundError('repository does not exist');
  if (pkg.repo_id > 0) throw new BadRequestError('package is already linked to a repository');
  await assertMayLink(db, doer, owner, repo);
  await setPackageRepo(db, pkg.id, repo.id);
}

/** Unlinks; a package linked to nothing (or to a repository gone) is fine. */
export async function unlinkPackage(db: DB, doer: User, owner: User, type: string, name: string): Promise<void> {
  const pkg = await getPackage(db, owner, type, name);
  if (pkg.repo_id === 0) return;
  const repo = await getRepoById(db, pkg.repo_id);
  if (repo) await assertMayLink(db, doer, owner, repo);
  await setPackageRepo(db, pkg.id, 0);
}
