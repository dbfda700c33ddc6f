import type { DB } from '../../db/connect';
import type { DeletedBranch, User } from '../../db/schema';
import { hasCommit } from '../../git/diff-view';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { getDeletedBranch, listDeletedBranches } from '../../models/deleted-branch';
import { createBranch, type BranchView } from './branches';
import { dirOfRepo } from './contents-paths';
import type { RepoAccess } from './repos';
import type { Hearth } from '../../hearth';

// Deleted branches, as Gitea keeps them (deleted-branch-record.ts records them): the branches
// page lists them and restores one while git still has its commit.

/** The repository's deleted branches, newest first. */
export const deletedBranches = (db: DB, access: RepoAccess, limit = 50): Promise<DeletedBranch[]> =>
  listDeletedBranches(db, access.repo.id, limit);

/** Gitea's RestoreBranchPost: the branch again at its last commit, unless the name is taken or git lost the commit. */
export async function restoreBranch(h: Hearth, access: RepoAccess, doer: User, id: number): Promise<BranchView> {
  const row = await getDeletedBranch(h.db, access.repo.id, id);
  if (!row) throw new NotFoundError('The deleted branch does not exist.');
  if (!(await hasCommit(dirOfRepo(h.config, access), row.commit_id))) {
    throw new ConflictError(`The last commit of ${row.name} is gone: the branch cannot be restored.`);
  }
  return createBranch(h, access, doer, { name: row.name, oldRef: row.commit_id });
}
