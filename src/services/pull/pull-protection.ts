import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { PullRequest, User } from '../../db/schema';
import { NotAllowedError } from '../../lib/errors';
import { latestCommitStatuses } from '../../models/commit-status';
import { listProtectedBranches } from '../../models/protected-branch';
import { REVIEW_TYPE, reviewRequests, submittedReviews } from '../../models/review';
import { combineStates } from '../../lib/commit-state';
import { ACCESS } from '../permissions';
import { canUserMerge, effectiveRule, filePatterns, matchesFile, toRule } from '../repo/protection-rules';
import { changedFiles } from '../../git/refs';
import { dirOfRepo } from './pull-git';
import type { RepoAccess } from '../repo/repos';

// Branch protection at merge time (Gitea's CheckPullBranchProtections and
// IsUserAllowedToMerge): merge whitelist, required approvals, required status checks.

const notReady = (msg: string) => new NotAllowedError(msg);

function globMatch(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(value);
}

export async function checkMergeProtection(db: DB, config: Config, access: RepoAccess, doer: User, pr: PullRequest, force: boolean): Promise<void> {
  const rule = effectiveRule((await listProtectedBranches(db, access.repo.id)).map(toRule), pr.base_branch);
  if (!rule) return;
  if (!(await canUserMerge(db, rule, { user: doer, mode: access.mode }))) throw notReady('User not allowed to merge PR');
  // Admins may force past the review and status requirements unless the rule forbids it.
  const overridden = force && access.mode >= ACCESS.admin && !rule.s.block_admin_merge_override;
  if (overridden) return;
  const reviews = (await submittedReviews(db, pr.issue_id)).filter((r) => r.official && !r.dismissed);
  const ignoreStale = rule.s.dismiss_stale_approvals || rule.s.ignore_stale_approvals;
  const approvals = reviews.filter((r) => r.type === REVIEW_TYPE.approve && !(ignoreStale && r.stale)).length;
  if (approvals < rule.s.required_approvals) throw notReady('Does not have enough approvals');
  if (rule.s.block_on_rejected_reviews && reviews.some((r) => r.type === REVIEW_TYPE.reject)) throw notReady('There are requested changes');
  if (rule.s.block_on_official_review_requests && (await reviewRequests(db, [pr.issue_id])).some((r) => r.official)) {
    throw notReady('There are official review requests');
  }
  if (rule.s.block_on_outdated_branch && pr.commits_behind > 0) throw notReady('The head branch is behind the base branch');
  if (rule.s.protected_file_patterns.trim()) await checkProtectedFiles(db, config, access, pr, rule.s.protected_file_patterns);
  if (rule.s.enable_status_check && rule.s.status_check_contexts.length) {
    const { rows } = await latestCommitStatuses(db, access.repo.id, pr.head_commit_id, { offset: 0, limit: 1000 });
    const states = rule.s.status_check_contexts.map((pattern) => {
      const matched = rows.filter((r) => globMatch(pattern, r.context)).map((r) => r.state);
      return matched.length ? combineStates(matched) : 'pending';
    });
    if (combineStates(states) !== 'success') throw notReady('Not all required status checks successful');
  }
}

/** Gitea's protected files: a pull touching them merges only through a push-allowed path, so the API refuses. */
async function checkProtectedFiles(db: DB, config: Config, access: RepoAccess, pr: PullRequest, spec: string): Promise<void> {
  const patterns = filePatterns(spec);
  if (!patterns.length || !pr.merge_base || !pr.head_commit_id) return;
  const dir = await dirOfRepo(db, config, access.repo);
  const touched = (await changedFiles(dir, pr.merge_base, pr.head_commit_id)).filter((f) => matchesFile(patterns, f));
  if (touched.length) throw notReady(`Changed protected files: ${touched.join(', ')}`);
}
