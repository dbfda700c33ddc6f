import type { DB } from '../../db/connect';
import { listBranchNames } from '../../models/branch';
import type { RepoAccess } from '../repo/repos';

// What the repository settings and release forms read beside the API's services.

/**
 * The repository's branch names, sorted, from its branch rows (kept in step with every push):
 * the default branch and release target selects list them without starting git.
 */
export async function branchNamesOf(db: DB, access: RepoAccess): Promise<string[]> {
  if (access.repo.is_empty) return [];
  return (await listBranchNames(db, access.repo.id)).sort();
}
