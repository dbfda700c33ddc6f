import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { PullRequest, PullRequestTable, Repository } from '../db/schema';

// pull_request rows: the git side of an issue with is_pull = 1.

export async function insertPull(db: DB, row: Insertable<PullRequestTable>): Promise<PullRequest> {
  return db.insertInto('pull_request').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getPullByIssueId(db: DB, issueId: number): Promise<PullRequest | undefined> {
  return db.selectFrom('pull_request').selectAll().where('issue_id', '=', issueId).executeTakeFirst();
}

export async function pullsByIssueIds(db: DB, issueIds: number[]): Promise<PullRequest[]> {
  if (!issueIds.length) return [];
  return db.selectFrom('pull_request').selectAll().where('issue_id', 'in', issueIds).execute();
}

export async function updatePull(db: DB, id: number, patch: Updateable<PullRequestTable>): Promise<void> {
  await db.updateTable('pull_request').set(patch).where('id', '=', id).execute();
}

/**
 * Marks the pull request merged unless it already is; whether this call did. Two nodes finishing
 * one merge (the merge's retry and the adoption of its intent) must not both record it.
 */
export async function setPullMerged(db: DB, id: number, patch: Updateable<PullRequestTable>): Promise<boolean> {
  const r = await db.updateTable('pull_request').set({ ...patch, has_merged: 1 }).where('id', '=', id).where('has_merged', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The open pull request from `head` into `base`, if any (Gitea's GetUnmergedPullRequest). */
export async function findOpenPull(
  db: DB, headRepoId: number, headBranch: string, baseRepoId: number, baseBranch: string,
): Promise<PullRequest | undefined> {
  return db.selectFrom('pull_request as p').innerJoin('issue as i', 'i.id', 'p.issue_id').selectAll('p')
    .where('p.head_repo_id', '=', headRepoId).where('p.head_branch', '=', headBranch)
    .where('p.base_repo_id', '=', baseRepoId).where('p.base_branch', '=', baseBranch)
    .where('p.has_merged', '=', 0).where('i.is_closed', '=', 0).executeTakeFirst();
}

/** The newest pull request from `head` into `base` in any state (GET pulls/{base}/{head}). */
export async function findPullByBranches(
  db: DB, baseRepoId: number, baseBranch: string, headRepoId: number, headBranch: string,
): Promise<PullRequest | undefined> {
  return db.selectFrom('pull_request').selectAll()
    .where('base_repo_id', '=', baseRepoId).where('base_branch', '=', baseBranch)
    .where('head_repo_id', '=', headRepoId).where('head_branch', '=', headBranch)
    .orderBy('id', 'desc').executeTakeFirst();
}

/** Open pull requests touching a repository's branches (as head or base), for refreshes after pushes. */
export async function openPullsOfRepo(db: DB, repoId: number): Promise<PullRequest[]> {
  return db.selectFrom('pull_request as p').innerJoin('issue as i', 'i.id', 'p.issue_id').selectAll('p')
    .where((eb) => eb.or([eb('p.head_repo_id', '=', repoId), eb('p.base_repo_id', '=', repoId)]))
    .where('p.has_merged', '=', 0).where('i.is_closed', '=', 0).execute();
}

/** The owner's fork of a repository (Gitea's GetForkedRepo). */
export async function forkOfOwner(db: DB, ownerId: number, baseId: number): Promise<Repository | undefined> {
  return db.selectFrom('repository').selectAll().where('owner_id', '=', ownerId).where('fork_id', '=', baseId).executeTakeFirst();
}

/** Open pull requests of a base repository with an auto-merge scheduled whose head is `sha`. */
export async function autoMergePullsAt(db: DB, baseRepoId: number, sha: string): Promise<PullRequest[]> {
  return db.selectFrom('pull_request as p').innerJoin('issue as i', 'i.id', 'p.issue_id').selectAll('p')
    .where('p.base_repo_id', '=', baseRepoId).where('p.head_commit_id', '=', sha).where('p.auto_merge', '!=', '')
    .where('p.has_merged', '=', 0).where('i.is_closed', '=', 0).execute();
}

export async function findPullByMergeCommit(db: DB, baseRepoId: number, sha: string): Promise<PullRequest | undefined> {
  return db.selectFrom('pull_request').selectAll().where('base_repo_id', '=', baseRepoId).where('has_merged', '=', 1)
    .where('merged_commit_id', '=', sha).executeTakeFirst();
}
