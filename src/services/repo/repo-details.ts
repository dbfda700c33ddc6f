import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { withAccess, type RepoAccess, type RepoWithParent } from './repos';
import { pendingTransfer, type PendingTransfer } from './transfer';

export type RepoDetails = RepoWithParent & { pending: PendingTransfer | null };

/** What GET /repos/{owner}/{repo} shows besides the row: the parent of a fork, a pending transfer. */
export async function repoDetails(db: DB, access: RepoAccess, viewer: User | null): Promise<RepoDetails> {
  const [loaded] = await withAccess(db, [access.repo], viewer);
  return { ...access, parent: loaded?.parent ?? null, pending: await pendingTransfer(db, access.repo) };
}
