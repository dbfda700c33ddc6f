import type { DB } from '../../db/connect';
import type { PullRequest, User } from '../../db/schema';
import { NotAllowedError } from '../../lib/errors';
import { latestCommitStatuses } from '../../models/commit-status';
import { listProtectedBranches } from '../../models/protected-branch';
import { REVIEW_TYPE, reviewRequests, submittedReviews } from '../../models/review';
import { combineStates, type StatusState } from '../../lib/commit-state';
import { ACCESS } from '../permissions';
import { canUserMerge, effectiveRule, filePatterns, matchesFile, toRule, type ProtectionRule } from '../repo/protection-rules';
import { changedFiles } from '../../git/refs';
import { dirOfRepo } from './pull-git';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Branch protection at merge time (Gitea's CheckPullBranchProtections and
// IsUserAllowedToMerge): merge whitelist, required approvals, required status checks. The
// facts are gathered once: the merge refuses on the first blocker, and the pull request page's
// merge box shows them all.

const notReady = (msg: string) => new NotAllowedError(msg);

function globMatch(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(value);
}

export type RequiredCheck = { context: string; state: StatusState };

export type ProtectionFacts = {
  rule: ProtectionRule | null;
  /** The doer is on the rule's merge whitelist (or there is none). */
  mayMerge: boolean;
  /** An admin may merge past reviews and checks (force_merge) under this rule. */
  mayOverride: boolean;
  requiredApprovals: number;
  /** Official approvals that count (stale ones left out when the rule ignores them). */
  approvals: number;
  /** Official approvals given on an older head. */
  staleApprovals: number;
  /** Official change requests standing. */
  rejections: number;
  officialRequests: number;
  requiredChecks: RequiredCheck[];
  /** Why the merge is refused, in the order the merge checks them; empty when nothing blocks. */
  blockers: string[];
};

/** What the base branch's rule asks of this pull request and where it stands, for `doer`. */
export async function protectionFacts(h: Hearth, access: RepoAccess, doer: User, pr: PullRequest): Promise<ProtectionFacts> {
  const rule = effectiveRule((await listProtectedBranches(h.db, access.repo.id)).map(toRule), pr.base_branch);
  const facts: ProtectionFacts = {
    rule, mayMerge: true, mayOverride: false, requiredApprovals: 0, approvals: 0, staleApprovals: 0, rejections: 0,
    officialRequests: 0, requiredChecks: [], blockers: [],
  };
  if (!rule) return facts;
  const s = rule.s;
  facts.mayMerge = await canUserMerge(h.db, rule, { user: doer, mode: access.mode });
  facts.mayOverride = access.mode >= ACCESS.admin && !s.block_admin_merge_override;
  const reviews = (await submittedReviews(h.db, pr.issue_id)).filter((r) => r.official && !r.dismissed);
  const ignoreStale = s.dismiss_stale_approvals || s.ignore_stale_approvals;
  const approved = reviews.filter((r) => r.type === REVIEW_TYPE.approve);
  facts.staleApprovals = approved.filter((r) => r.stale).length;
  facts.approvals = approved.filter((r) => !(ignoreStale && r.stale)).length;
  facts.rejections = reviews.filter((r) => r.type === REVIEW_TYPE.reject).length;
  facts.officialRequests = (await reviewRequests(h.db, [pr.issue_id])).filter((r) => r.official).length;
  facts.requiredApprovals = s.required_approvals;
  const b = facts.blockers;
  if (facts.approvals < s.required_approvals) b.push('Does not have enough approvals');
  if (s.block_on_rejected_reviews && facts.rejections) b.push('There are requested changes');
  if (s.block_on_official_review_requests && facts.officialRequests) b.push('There are official review requests');
  if (s.block_on_outdated_branch && pr.commits_behind > 0) b.push('The head branch is behind the base branch');
  const touched = s.protected_file_patterns.trim() ? await protectedFilesTouched(h, access, pr, s.protected_file_patterns) : [];
  if (touched.length) b.push(`Changed protected files: ${touched.join(', ')}`);
  if (s.enable_status_check && s.status_check_contexts.length) {
    facts.requiredChecks = await requiredChecks(h.db, access, pr, s.status_check_contexts);
    if (combineStates(facts.requiredChecks.map((c) => c.state)) !== 'success') b.push('Not all required status checks successful');
  }
  return facts;
}

/** Each required context pattern with the combined state of the statuses it matches (pending when none). */
async function requiredChecks(db: DB, access: RepoAccess, pr: PullRequest, patterns: string[]): Promise<RequiredCheck[]> {
  const { rows } = await latestCommitStatuses(db, access.repo.id, pr.head_commit_id, { offset: 0, limit: 1000 });
  return patterns.map((pattern) => {
    const matched = rows.filter((r) => globMatch(pattern, r.context)).map((r) => r.state);
    return { context: pattern, state: matched.length ? combineStates(matched) : 'pending' };
  });
}

export async function checkMergeProtection(h: Hearth, access: RepoAccess, doer: User, pr: PullRequest, force: boolean): Promise<void> {
  const facts = await protectionFacts(h, access, doer, pr);
  if (!facts.rule) return;
  if (!facts.mayMerge) throw notReady('User not allowed to merge PR');
  // Admins may force past the review and status requirements unless the rule forbids it.
  if (force && facts.mayOverride) return;
  if (facts.blockers.length) throw notReady(facts.blockers[0]!);
}

/** Gitea's protected files: a pull touching them merges only through a push-allowed path, so the API refuses. */
async function protectedFilesTouched(h: Hearth, access: RepoAccess, pr: PullRequest, spec: string): Promise<string[]> {
  const patterns = filePatterns(spec);
  if (!patterns.length || !pr.merge_base || !pr.head_commit_id) return [];
  const dir = await dirOfRepo(h, access.repo);
  return (await changedFiles(dir, pr.merge_base, pr.head_commit_id)).filter((f) => matchesFile(patterns, f));
}
