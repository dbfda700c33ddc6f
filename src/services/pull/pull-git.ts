import type { DB } from '../../db/connect';
import type { PullRequest, Repository } from '../../db/schema';
import { updateRef } from '../../git/commit';
import { gitRun } from '../../git/exec';
import { mergeBase } from '../../git/log';
import { diffShortStat, mergeCommits } from '../../git/merge';
import { branchAndPullTips } from '../../git/refs';
import { revParse, repoDir, zeroId } from '../../git/repo';
import { getPullByIssueId, updatePull } from '../../models/pull';
import { getRepoById } from '../../models/repo';
import { dismissApprovals, markStaleReviews } from '../../models/review';
import { listProtectedBranches } from '../../models/protected-branch';
import { nowUnix } from '../../lib/time';
import { effectiveRule, toRule } from '../repo/protection-rules';
import { getUserById } from '../../models/user';
import type { Hearth } from '../../hearth';

// The git side of a pull request: `refs/pull/N/head` in the base repository follows the head
// branch (fetched across for forks), and the stored mergeability follows both tips.

export const PULL_STATUS = { checking: 'checking', mergeable: 'mergeable', conflict: 'conflict', empty: 'empty', error: 'error' } as const;

export const headRefOf = (pr: Pick<PullRequest, 'index'>) => `refs/pull/${pr.index}/head`;

export async function dirOfRepo(h: Hearth, repo: Repository): Promise<string> {
  const owner = await getUserById(h.db, repo.owner_id);
  return repoDir(h.config.repository.root, owner?.name ?? '', repo.name);
}

/** Points refs/pull/N/head at the head branch's tip; returns the head commit (the stored one when the branch is gone). */
export async function syncHeadRef(h: Hearth, pr: PullRequest, baseDir: string): Promise<string> {
  const current = await revParse(baseDir, headRefOf(pr));
  if (pr.has_merged) return current ?? pr.head_commit_id;
  const headRepo = pr.head_repo_id === pr.base_repo_id ? null : await getRepoById(h.db, pr.head_repo_id);
  // A deleted fork leaves the last fetched head in place.
  if (pr.head_repo_id !== pr.base_repo_id && !headRepo) return current ?? pr.head_commit_id;
  const headDir = headRepo ? await dirOfRepo(h, headRepo) : baseDir;
  const tip = await revParse(headDir, `refs/heads/${pr.head_branch}`);
  if (!tip) return current ?? pr.head_commit_id;
  if (tip === current) return tip;
  if (headRepo) {
    await gitRun(['fetch', '--no-tags', '--quiet', headDir, `+${tip}:${headRefOf(pr)}`], { gitDir: baseDir });
    if ((await revParse(baseDir, headRefOf(pr))) !== tip) {
      // Some git versions refuse fetching a bare id: fetch the branch by name instead.
      await gitRun(['fetch', '--no-tags', '--quiet', headDir, `+refs/heads/${pr.head_branch}:${headRefOf(pr)}`], { gitDir: baseDir });
    }
  } else {
    await updateRef(baseDir, headRefOf(pr), tip, current, zeroId(tip.length === 64 ? 'sha256' : 'sha1'));
  }
  return tip;
}

async function countRange(dir: string, from: string, to: string): Promise<number> {
  const r = await gitRun(['rev-list', '--count', `${from}..${to}`], { gitDir: dir });
  return Number(r.stdout.toString().trim()) || 0;
}

/** Recomputes mergeability and stats when either tip moved; merged pull requests keep their record. */
export async function refreshPull(h: Hearth, pr: PullRequest, force = false): Promise<PullRequest> {
  if (pr.has_merged) return pr;
  const base = await getRepoById(h.db, pr.base_repo_id);
  if (!base) return pr;
  const dir = await dirOfRepo(h, base);
  const head = await syncHeadRef(h, pr, dir);
  const baseSha = (await revParse(dir, `refs/heads/${pr.base_branch}`)) ?? pr.base_commit_id;
  if (!force && head === pr.head_commit_id && baseSha === pr.base_commit_id && pr.status !== PULL_STATUS.checking) return pr;
  const patch = await computeState(dir, baseSha, head);
  await updatePull(h.db, pr.id, { ...patch, head_commit_id: head, base_commit_id: baseSha });
  if (head !== pr.head_commit_id) await reviewsAfterHeadMoved(h.db, pr, head);
  return (await getPullByIssueId(h.db, pr.issue_id))!;
}

/**
 * Tells, from the refs of each repository read once, whether refreshPull would find a pull
 * request as stored (three git processes per pull request otherwise: a listing of 50 took
 * 440 ms). The refs are those of the first question: make a new reader after moving any.
 */
export function tipsReader(h: Hearth) {
  const repos = new Map<number, Promise<Map<string, string> | null>>();
  const tipsOf = (repoId: number) => {
    let tips = repos.get(repoId);
    if (!tips) {
      tips = getRepoById(h.db, repoId).then(async (repo) => (repo ? branchAndPullTips(await dirOfRepo(h, repo)) : null));
      repos.set(repoId, tips);
    }
    return tips;
  };
  return {
    async unchanged(pr: PullRequest): Promise<boolean> {
      if (pr.has_merged) return true;
      const [base, head] = await Promise.all([tipsOf(pr.base_repo_id), tipsOf(pr.head_repo_id)]);
      return !!base && !!head && isUnchanged(pr, base, head);
    },
  };
}

/** refreshPull for a page of pull requests: only those whose head or base moved are recomputed. */
export async function refreshPulls(h: Hearth, rows: PullRequest[]): Promise<PullRequest[]> {
  const tips = tipsReader(h);
  return Promise.all(rows.map(async (pr) => ((await tips.unchanged(pr)) ? pr : refreshPull(h, pr).catch(() => pr))));
}

/** What refreshPull would find without moving anything: same head, same pull ref, same base. */
function isUnchanged(pr: PullRequest, base: Map<string, string>, head: Map<string, string>): boolean {
  const headTip = head.get(`refs/heads/${pr.head_branch}`);
  const pullRef = base.get(headRefOf(pr));
  const seenHead = headTip ?? pullRef ?? pr.head_commit_id;
  const baseTip = base.get(`refs/heads/${pr.base_branch}`) ?? pr.base_commit_id;
  return pr.status !== PULL_STATUS.checking && seenHead === pr.head_commit_id && baseTip === pr.base_commit_id
    && (headTip === undefined || pullRef === headTip);
}

/** Reviews of an earlier head go stale; approvals are dismissed where the base's rule says so. */
async function reviewsAfterHeadMoved(db: DB, pr: PullRequest, head: string): Promise<void> {
  await markStaleReviews(db, pr.issue_id, head);
  const rule = effectiveRule((await listProtectedBranches(db, pr.base_repo_id)).map(toRule), pr.base_branch);
  if (rule?.s.dismiss_stale_approvals) await dismissApprovals(db, pr.issue_id, head, nowUnix());
}

async function computeState(dir: string, baseSha: string, head: string) {
  if (!baseSha || !head) return { status: PULL_STATUS.error };
  const mb = (await mergeBase(dir, baseSha, head)) ?? '';
  const merged = await mergeCommits(dir, baseSha, head);
  const ahead = await countRange(dir, baseSha, head);
  const stat = await diffShortStat(dir, mb || baseSha, head);
  const status = merged.conflicts.length ? PULL_STATUS.conflict : ahead === 0 ? PULL_STATUS.empty : PULL_STATUS.mergeable;
  return {
    status, merge_base: mb, conflicted_files: JSON.stringify(merged.conflicts),
    commits_ahead: ahead, commits_behind: await countRange(dir, head, baseSha),
    additions: stat.additions, deletions: stat.deletions, changed_files: stat.files,
  };
}
