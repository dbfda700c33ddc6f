import type { DB } from '../../db/connect';
import type { ProtectedBranch, User } from '../../db/schema';
import { compileGlob, compileGlobOrLiteral, hasGlobSyntax } from '../../lib/glob';
import { isUserInTeams } from '../../models/user-lookup';
import { ACCESS } from '../permissions';

/**
 * What a branch rule stores in protected_branch.settings, as Gitea's ProtectedBranch columns.
 * Whitelists hold user and team ids (names are resolved when rendered, so renames follow).
 * Pull requests read the review fields later; pushes read the push fields now.
 */
export type ProtectionSettings = {
  can_push: boolean;
  enable_whitelist: boolean;
  whitelist_user_ids: number[];
  whitelist_team_ids: number[];
  whitelist_deploy_keys: boolean;
  can_force_push: boolean;
  enable_force_push_allowlist: boolean;
  force_push_allowlist_user_ids: number[];
  force_push_allowlist_team_ids: number[];
  force_push_allowlist_deploy_keys: boolean;
  enable_merge_whitelist: boolean;
  merge_whitelist_user_ids: number[];
  merge_whitelist_team_ids: number[];
  enable_status_check: boolean;
  status_check_contexts: string[];
  enable_approvals_whitelist: boolean;
  approvals_whitelist_user_ids: number[];
  approvals_whitelist_team_ids: number[];
  required_approvals: number;
  block_on_rejected_reviews: boolean;
  block_on_official_review_requests: boolean;
  block_on_outdated_branch: boolean;
  dismiss_stale_approvals: boolean;
  ignore_stale_approvals: boolean;
  require_signed_commits: boolean;
  protected_file_patterns: string;
  unprotected_file_patterns: string;
  block_admin_merge_override: boolean;
};

export const DEFAULT_PROTECTION: ProtectionSettings = {
  can_push: false, enable_whitelist: false, whitelist_user_ids: [], whitelist_team_ids: [], whitelist_deploy_keys: false,
  can_force_push: false, enable_force_push_allowlist: false, force_push_allowlist_user_ids: [],
  force_push_allowlist_team_ids: [], force_push_allowlist_deploy_keys: false,
  enable_merge_whitelist: false, merge_whitelist_user_ids: [], merge_whitelist_team_ids: [],
  enable_status_check: false, status_check_contexts: [],
  enable_approvals_whitelist: false, approvals_whitelist_user_ids: [], approvals_whitelist_team_ids: [],
  required_approvals: 0, block_on_rejected_reviews: false, block_on_official_review_requests: false,
  block_on_outdated_branch: false, dismiss_stale_approvals: false, ignore_stale_approvals: false,
  require_signed_commits: false, protected_file_patterns: '', unprotected_file_patterns: '',
  block_admin_merge_override: false,
};

export type ProtectionRule = { row: ProtectedBranch; s: ProtectionSettings; plain: boolean; match: (branch: string) => boolean };

export function settingsOfRule(row: ProtectedBranch): ProtectionSettings {
  let stored: Partial<ProtectionSettings> = {};
  try {
    stored = JSON.parse(row.settings) as Partial<ProtectionSettings>;
  } catch { /* an unreadable column counts as defaults */ }
  return { ...DEFAULT_PROTECTION, ...stored };
}

/** A rule with its matcher: plain names match case-insensitively, globs as Gitea (`*` stops at `/`). */
export function toRule(row: ProtectedBranch): ProtectionRule {
  const plain = !hasGlobSyntax(row.rule_name);
  const lower = row.rule_name.toLowerCase();
  const re = plain ? null : compileGlobOrLiteral(row.rule_name, '/');
  return { row, s: settingsOfRule(row), plain, match: (b) => (re ? re.test(b) : b.toLowerCase() === lower) };
}

/** Plain names first, then by priority (lower wins), then the oldest: Gitea's order. */
export function sortRules(rules: ProtectionRule[]): ProtectionRule[] {
  return [...rules].sort((a, b) => (Number(b.plain) - Number(a.plain))
    || (a.row.priority - b.row.priority) || (a.row.created_unix - b.row.created_unix) || (a.row.id - b.row.id));
}

/** The rule that governs `branch`: the exact-name rule, else the highest-priority matching glob. */
export function effectiveRule(rules: ProtectionRule[], branch: string): ProtectionRule | null {
  return sortRules(rules).find((r) => r.match(branch)) ?? null;
}

/** deployKey: pushed with a deploy key (user is then the repository's owner, as Gitea). */
export type Pusher = { user: User; mode: number; deployKey?: boolean };

/** As Gitea's CanUserPush: push enabled, then write access or the push whitelist. */
export async function canUserPush(db: DB, rule: ProtectionRule, p: Pusher): Promise<boolean> {
  if (!rule.s.can_push) return false;
  if (!rule.s.enable_whitelist) return p.mode >= ACCESS.write;
  // Gitea: a deploy key passes an allowlist only when the rule lets deploy keys push.
  if (p.deployKey) return rule.s.whitelist_deploy_keys;
  if (rule.s.whitelist_user_ids.includes(p.user.id)) return true;
  return isUserInTeams(db, p.user.id, rule.s.whitelist_team_ids);
}

/** As Gitea's CanUserForcePush: force push enabled, the allowlist if on, and push rights. */
export async function canUserForcePush(db: DB, rule: ProtectionRule, p: Pusher): Promise<boolean> {
  if (!rule.s.can_force_push) return false;
  if (rule.s.enable_force_push_allowlist) {
    const listed = rule.s.force_push_allowlist_user_ids.includes(p.user.id)
      || (await isUserInTeams(db, p.user.id, rule.s.force_push_allowlist_team_ids));
    if (!listed) return false;
  }
  return canUserPush(db, rule, p);
}

/** As Gitea's IsUserMergeWhitelisted: the merge whitelist if on, else write access. */
export async function canUserMerge(db: DB, rule: ProtectionRule, p: Pusher): Promise<boolean> {
  if (!rule.s.enable_merge_whitelist) return p.mode >= ACCESS.write;
  if (rule.s.merge_whitelist_user_ids.includes(p.user.id)) return true;
  return isUserInTeams(db, p.user.id, rule.s.merge_whitelist_team_ids);
}

/** `;`-separated file globs, lower-cased, where `*` stops at `.` and `/`; invalid ones skipped (as Gitea). */
export function filePatterns(spec: string): RegExp[] {
  const out: RegExp[] = [];
  for (const p of spec.toLowerCase().split(';').map((s) => s.trim()).filter(Boolean)) {
    try {
      out.push(compileGlob(p, './'));
    } catch { /* skipped */ }
  }
  return out;
}

export const matchesFile = (patterns: RegExp[], path: string) => {
  const p = path.trim().toLowerCase();
  return patterns.some((re) => re.test(p));
};
