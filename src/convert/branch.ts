import type { Config } from '../config/schema';
import type { CommitInfo } from '../git/refs';
import { hasGlobSyntax } from '../lib/glob';
import { isoTime } from '../lib/time';
import type { BranchView } from '../services/repo/branches';
import type { BranchProtectionView } from '../services/repo/protected-branches';
import type { RepoAccess } from '../services/repo/repos';
import { UNVERIFIED } from './commit';
import { repoUrls } from './repo';

/** Git's ISO dates as Go renders them: a zero offset is `Z`. */
const goTime = (iso: string) => iso.replace(/[+-]00:00$/, 'Z');

/** PayloadCommit of a branch head; users are named when their email belongs to an account. */
export function toPayloadCommit(config: Config, access: RepoAccess, c: CommitInfo, userNames: Map<string, string>) {
  const { html_url } = repoUrls(config, access.owner.name, access.repo.name);
  const who = (p: CommitInfo['author']) => ({ name: p.name, email: p.email, username: userNames.get(p.email.toLowerCase()) ?? '' });
  return {
    id: c.sha,
    message: c.message,
    url: `${html_url}/commit/${c.sha}`,
    author: who(c.author),
    committer: who(c.committer),
    verification: { ...UNVERIFIED },
    timestamp: goTime(c.author.date),
    added: [] as string[],
    removed: [] as string[],
    modified: [] as string[],
  };
}

export function toApiBranch(config: Config, access: RepoAccess, b: BranchView) {
  const s = b.rule?.s;
  return {
    name: b.name,
    commit: toPayloadCommit(config, access, b.commit, b.userNames),
    protected: !!b.rule,
    required_approvals: s?.required_approvals ?? 0,
    enable_status_check: s?.enable_status_check ?? false,
    status_check_contexts: s?.status_check_contexts ?? [],
    user_can_push: b.userCanPush,
    user_can_merge: b.userCanMerge,
    effective_branch_protection_name: b.rule?.row.rule_name ?? '',
  };
}

/** Every field of BranchProtection; `branch_name` (deprecated) only for plain-name rules, as Gitea. */
export function toApiBranchProtection(v: BranchProtectionView) {
  const { row, s } = v.rule;
  const n = v.names;
  return {
    branch_name: hasGlobSyntax(row.rule_name) ? '' : row.rule_name,
    rule_name: row.rule_name,
    priority: row.priority,
    enable_push: s.can_push,
    enable_push_whitelist: s.enable_whitelist,
    push_whitelist_usernames: n.push_whitelist_usernames,
    push_whitelist_teams: n.push_whitelist_teams,
    push_whitelist_deploy_keys: s.whitelist_deploy_keys,
    enable_force_push: s.can_force_push,
    enable_force_push_allowlist: s.enable_force_push_allowlist,
    force_push_allowlist_usernames: n.force_push_allowlist_usernames,
    force_push_allowlist_teams: n.force_push_allowlist_teams,
    force_push_allowlist_deploy_keys: s.force_push_allowlist_deploy_keys,
    enable_merge_whitelist: s.enable_merge_whitelist,
    merge_whitelist_usernames: n.merge_whitelist_usernames,
    merge_whitelist_teams: n.merge_whitelist_teams,
    enable_status_check: s.enable_status_check,
    status_check_contexts: s.status_check_contexts,
    required_approvals: s.required_approvals,
    enable_approvals_whitelist: s.enable_approvals_whitelist,
    approvals_whitelist_username: n.approvals_whitelist_username,
    approvals_whitelist_teams: n.approvals_whitelist_teams,
    block_on_rejected_reviews: s.block_on_rejected_reviews,
    block_on_official_review_requests: s.block_on_official_review_requests,
    block_on_outdated_branch: s.block_on_outdated_branch,
    dismiss_stale_approvals: s.dismiss_stale_approvals,
    ignore_stale_approvals: s.ignore_stale_approvals,
    require_signed_commits: s.require_signed_commits,
    protected_file_patterns: s.protected_file_patterns,
    unprotected_file_patterns: s.unprotected_file_patterns,
    block_admin_merge_override: s.block_admin_merge_override,
    created_at: isoTime(row.created_unix),
    updated_at: isoTime(row.updated_unix),
  };
}
