import type { DB } from '../../db/connect';
import { lockRow, lockRows } from '../../db/dialect';
import { getIssueById } from '../../models/issue';
import { labelIdsOfIssue } from '../../models/issue-label';

// The rows whose counters an issue change recounts (its repository's issue counts, its
// milestone's and its labels'), locked before the change's first write and always in one
// order, repository, issue, milestones, labels, so that concurrent changes queue rather than
// deadlock. On SQLite nothing runs (one writer at a time); on PostgreSQL each recount then reads
// every row the previous holder committed.

export type IssueLockExtras = {
  milestoneIds?: (number | null | undefined)[]; labelIds?: number[];
  /** The transaction already holds the repository row: its first write was an UPDATE of it (a new issue's count). */
  repoHeld?: boolean;
};

/**
 * Locks the repository, the issue (when there is one yet) and the milestones and labels it has
 * now, plus `extra`: the ones the change is about to give it.
 */
export async function lockIssueCounters(db: DB, repoId: number, issueId: number | null, extra: IssueLockExtras = {}): Promise<void> {
  if (!extra.repoHeld) await lockRow(db, 'repository', repoId);
  if (issueId) await lockRow(db, 'issue', issueId);
  await lockRows(db, 'milestone', async () => [
    ...(extra.milestoneIds ?? []), ...(issueId ? [(await getIssueById(db, issueId))?.milestone_id] : []),
  ]);
  await lockRows(db, 'label', async () => [...(extra.labelIds ?? []), ...(issueId ? await labelIdsOfIssue(db, issueId) : [])]);
}
