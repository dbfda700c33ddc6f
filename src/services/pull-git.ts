import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { PullRequest, Repository } from '../db/schema';
import { updateRef } from '../git/commit';
import { gitRun } from '../git/exec';
import { mergeBase } from '../git/log';
import { diffShortStat, mergeCommits } from '../git/merge';
import { revParse, repoDir, zeroId } from '../git/repo';
import { getPullByIssueId, openPullsOfRepo, updatePull } from '../models/pull';
import { getRepoById } from '../models/repo';
import { getIssueById } from '../models/issue';
import { markMerged } from './pull-state';
import { settingsOf } from './repo-settings';
import { markStaleReviews } from '../models/review';
import { getUserById } from '../models/user';

// The git side of a pull request: `refs/pull/N/head` in the base repository follows the head
// branch (fetched across for forks), and the stored mergeability follows both tips.

export const PULL_STATUS = { checking: 'checking', mergeable: 'mergeable', conflict: 'conflict', empty: 'empty', error: 'error' } as const;

export const headRefOf = (pr: Pick<PullRequest, 'index'>) => `refs/pull/${pr.index}/head`;

export async function dirOfRepo(db: DB, config: Config, repo: Repository): Promise<string> {
  const owner = await getUserById(db, repo.owner_id);
  return repoDir(config.repository.root, owner?.name ?? '', repo.name);
}

/** Points refs/pull/N/head at the head branch's tip; returns the head commit (the stored one when the branch is gone). */
export async function syncHeadRef(db: DB, config: Config, pr: PullRequest, baseDir: string): Promise<string> {
  const current = await revParse(baseDir, headRefOf(pr));
  if (pr.has_merged) return current ?? pr.head_commit_id;
  const headRepo = pr.head_repo_id === pr.base_repo_id ? null : await getRepoById(db, pr.head_repo_id);
  // A deleted fork leaves the last fetched head in place.
  if (pr.head_repo_id !== pr.base_repo_id && !headRepo) return current ?? pr.head_commit_id;
  const headDir = headRepo ? await dirOfRepo(db, config, headRepo) : baseDir;
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
export async function refreshPull(db: DB, config: Config, pr: PullRequest, force = false): Promise<PullRequest> {
  if (pr.has_merged) return pr;
  const base = await getRepoById(db, pr.base_repo_id);
  if (!base) return pr;
  const dir = await dirOfRepo(db, config, base);
  const head = await syncHeadRef(db, config, pr, dir);
  const baseSha = (await revParse(dir, `refs/heads/${pr.base_branch}`)) ?? pr.base_commit_id;
  if (!force && head === pr.head_commit_id && baseSha === pr.base_commit_id && pr.status !== PULL_STATUS.checking) return pr;
  const patch = await computeState(dir, baseSha, head);
  await updatePull(db, pr.id, { ...patch, head_commit_id: head, base_commit_id: baseSha });
  if (head !== pr.head_commit_id) await markStaleReviews(db, pr.issue_id, head);
  return (await getPullByIssueId(db, pr.issue_id))!;
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

/** After a push: every open pull request with a side in this repository follows. Never throws. */
export async function refreshPullsAfterPush(db: DB, config: Config, repoId: number, pusherId: number): Promise<void> {
  for (const pr of await openPullsOfRepo(db, repoId)) {
    try {
      const fresh = await refreshPull(db, config, pr);
      if (pr.base_repo_id === repoId && pr.commits_ahead > 0 && fresh.commits_ahead === 0) await detectManualMerge(db, config, fresh, pusherId);
    } catch { /* one broken pull request must not stop the others */ }
  }
}

/**
 * autodetect_manual_merge: a push that put the head into the base merged the pull request;
 * the merge commit is the first merge on the path from the head, else the head itself.
 */
async function detectManualMerge(db: DB, config: Config, pr: PullRequest, pusherId: number): Promise<void> {
  const base = await getRepoById(db, pr.base_repo_id);
  if (!base || !settingsOf(base).autodetect_manual_merge) return;
  const dir = await dirOfRepo(db, config, base);
  const r = await gitRun(['rev-list', '--ancestry-path', '--merges', '--reverse', `${pr.head_commit_id}..${pr.base_commit_id}`], { gitDir: dir });
  const commit = r.stdout.toString().split('\n')[0]?.trim() || pr.head_commit_id;
  const issue = await getIssueById(db, pr.issue_id);
  if (issue) await markMerged(db, base.id, pusherId, issue, pr, commit);
}
