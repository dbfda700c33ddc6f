import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import type { RefUpdate } from '../git/hooks';
import type { RepoAccess } from './repos';

export type GitView = { dir: string; env: Record<string, string> };

/** Protected-branch rules on push; filled in with the branch protection API. */
export async function checkBranchProtection(
  _db: DB, _access: RepoAccess, _doer: User, _git: GitView, _updates: RefUpdate[],
): Promise<string | null> {
  return null;
}
