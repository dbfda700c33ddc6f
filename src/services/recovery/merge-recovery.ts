import { isAncestor } from '../../git/refs';
import { revParse } from '../../git/repo';
import { getBranchRow } from '../../models/branch';
import { getIssueById } from '../../models/issue';
import { getPullByIssueId } from '../../models/pull';
import { getRepoById } from '../../models/repo';
import type { Repository } from '../../db/schema';
import { getUserById } from '../../models/user';
import { dirOfRepo } from '../pull/pull-git';
import { recordLanded, type MergeIntent } from '../pull/pull-merge-land';
import { withRefsLock } from '../repo/refs-lock';
import type { Hearth } from '../../hearth';

// A merge killed between moving the base branch and marking the pull request merged
// (pull-merge-land.ts). The pull request row says whether the merge was recorded; the base
// branch says whether it landed. Landed and unrecorded: the bookkeeping is finished exactly as
// the merge would have (the base's refs sync and push event, the merged mark and its events,
// the head branch deleted if asked). Not landed: the merge did not happen and the user retries.

/** Whether `tip` is `commit` or contains it (a missing object contains nothing). */
async function contains(dir: string, tip: string | null | undefined, commit: string): Promise<boolean> {
  return !!tip && (tip === commit || (await isAncestor(dir, commit, tip).catch(() => false)));
}

export async function recoverMerge(h: Hearth, payload: MergeIntent): Promise<string> {
  const pr = await getPullByIssueId(h.db, payload.issueId);
  if (!pr) return 'the pull request is gone';
  if (pr.has_merged) return 'already merged';
  const repo = await getRepoById(h.db, payload.repoId);
  if (!repo) return 'the repository is gone';
  // As the merge itself: the pull follow-ups the refs sync queues wait until the mark is in.
  return withRefsLock(repo.id, () => finishMerge(h, repo, payload));
}

/**
 * The recovery proper, for a caller holding the repository's refs lock (so no merge of it is
 * under way on any node). `intentId` is cleared with the merged mark.
 */
export async function finishMerge(h: Hearth, repo: Repository, payload: MergeIntent, intentId?: number): Promise<string> {
  // Read again under the lock: another node may have finished this merge while we waited.
  const pr = await getPullByIssueId(h.db, payload.issueId);
  if (!pr) return 'the pull request is gone';
  if (pr.has_merged) return 'already merged';
  const dir = await dirOfRepo(h, repo);
  if (!(await contains(dir, await revParse(dir, `refs/heads/${payload.baseBranch}`), payload.commit))) {
    return 'the base branch never moved: not merged';
  }
  const [doer, issue] = await Promise.all([getUserById(h.db, payload.doerId), getIssueById(h.db, payload.issueId)]);
  if (!doer || !issue) throw new Error(`the doer ${payload.doerId} or the issue ${payload.issueId} is gone`);
  // Killed after the refs sync: its branch row already holds the merge and its push event went
  // out; running it again would announce the same push twice (feed, webhooks, Actions).
  const row = await getBranchRow(h.db, repo.id, payload.baseBranch);
  const synced = await contains(dir, row?.commit_id, payload.commit);
  await recordLanded(h, { repo, doer, issue, pr, dir }, payload, { synced, intentId });
  return `finished the merge of pull request #${payload.index} (${payload.commit})${synced ? ', base already synced' : ''}`;
}

