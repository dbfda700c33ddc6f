import type { Repository } from '../../db/schema';
import { listPendingOpsOfKind, removePendingOp } from '../../models/pending-op';
import type { MergeIntent } from '../pull/pull-merge-land';
import type { Hearth } from '../../hearth';

/**
 * Merges and API commits of `repo` whose node moved the branch and then died (their intent not
 * adopted yet) or failed the bookkeeping: finished by whoever next takes the repository's refs
 * lock (a merge, an API commit), before it moves a branch. Else a retry merged the pull request a
 * second time, and a later move, synced first, swallowed the left one's push event. The caller
 * holds the refs lock, so no merge nor API commit of the repository is under way on any node
 * (git pushes do not take it: their intents are left to the adoption).
 */
export async function finishLeftRefMoves(h: Hearth, repo: Repository): Promise<void> {
  await finishLeftCommits(h, repo);
  const left = (await listPendingOpsOfKind(h.db, 'pull.merge'))
    .map((row) => ({ row, payload: JSON.parse(row.payload) as MergeIntent }))
    .filter((l) => l.payload.repoId === repo.id);
  if (!left.length) return;
  // The recovery (and the services it calls) loads only when a merge was left behind.
  const { finishMerge } = await import('./merge-recovery');
  for (const { row, payload } of left) {
    const outcome = await finishMerge(h, repo, payload, row.id);
    await removePendingOp(h.db, row.id);
    h.log.warn({ op: row.kind, owner: row.owner, payload: row.payload, outcome }, 'finished a merge left behind before moving the branch again');
  }
}

/** API commits' intents ('push' rows from the contents API) of `repo`, synced and announced. */
async function finishLeftCommits(h: Hearth, repo: Repository): Promise<void> {
  const left = (await listPendingOpsOfKind(h.db, 'push'))
    .map((row) => ({ row, payload: JSON.parse(row.payload) as { repoId: number; source?: string } }))
    .filter((l) => l.payload.repoId === repo.id && l.payload.source === 'commit');
  if (!left.length) return;
  const { recoverPush } = await import('../repo/ref-intent');
  for (const { row, payload } of left) {
    const outcome = await recoverPush(h, payload as Parameters<typeof recoverPush>[1]);
    await removePendingOp(h.db, row.id);
    h.log.warn({ op: row.kind, owner: row.owner, payload: row.payload, outcome }, 'finished a commit left behind before moving the branch again');
  }
}
