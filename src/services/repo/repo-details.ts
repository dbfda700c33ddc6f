import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { mirrorOf, parentOf, type RepoAccess, type RepoWithParent } from './repos';
import { pendingTransfer, type PendingTransfer } from './transfer';

export type RepoDetails = RepoWithParent & { pending: PendingTransfer | null };

/** What GET /repos/{owner}/{repo} shows besides the row: the parent of a fork, a pending transfer. */
export async function repoDetails(db: DB, access: RepoAccess, viewer: User | null): Promise<RepoDetails> {
  // The guard read the access already: only a fork's parent (and a mirror's row) is left to load.
  const mirror = await mirrorOf(db, access.repo);
  // The guard's read says whether a transfer is pending: none (the usual case) costs no statement.
  const pending = access.transferPending === false ? null : await pendingTransfer(db, access.repo);
  return { ...access, mirror, parent: await parentOf(db, access.repo, viewer), pending };
}
