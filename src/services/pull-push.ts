import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { PullRequest } from '../db/schema';
import { gitRun } from '../git/exec';
import { getIssueById } from '../models/issue';
import { openPullsOfRepo } from '../models/pull';
import { getRepoById } from '../models/repo';
import { attemptAutoMerge } from './pull-auto-merge';
import { dirOfRepo, refreshPull } from './pull-git';
import { markMerged } from './pull-state';
import { settingsOf } from './repo-settings';

// What a push does to the pull requests with a side in the pushed repository.

/** After a push: every open pull request with a side in this repository follows. Never throws. */
export async function refreshPullsAfterPush(db: DB, config: Config, repoId: number, pusherId: number): Promise<void> {
  for (const pr of await openPullsOfRepo(db, repoId)) {
    try {
      const fresh = await refreshPull(db, config, pr);
      if (pr.base_repo_id === repoId && pr.commits_ahead > 0 && fresh.commits_ahead === 0) await detectManualMerge(db, config, fresh, pusherId);
      // A new head or base may satisfy what a scheduled merge waited for (Gitea rechecks after testing the pull).
      if (fresh.auto_merge && !fresh.has_merged) await attemptAutoMerge(db, config, fresh.issue_id);
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
