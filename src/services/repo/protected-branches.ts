import type { DB } from '../../db/connect';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  deleteProtectedBranch, getProtectedBranchByName, insertProtectedBranch, listProtectedBranches,
  maxProtectedBranchPriority, setProtectedBranchPriority, updateProtectedBranch,
} from '../../models/protected-branch';
import { ACCESS } from '../permissions';
import { DEFAULT_PROTECTION, sortRules, toRule, type ProtectionRule, type ProtectionSettings } from './protection-rules';
import type { RepoAccess } from './repos';
import { keepWithAccess, teamIdsByNames, teamNamesOf, userIdsByNames, userNamesOf } from './whitelists';
import { recordAudit, type AuditTarget } from '../audit/record';

type Opt<T> = T | null | undefined;

/** CreateBranchProtectionOption / EditBranchProtectionOption; null counts as not given. */
export type ProtectionInput = {
  rule_name?: Opt<string>; branch_name?: Opt<string>; priority?: Opt<number>;
  enable_push?: Opt<boolean>; enable_push_whitelist?: Opt<boolean>; push_whitelist_deploy_keys?: Opt<boolean>;
  enable_force_push?: Opt<boolean>; enable_force_push_allowlist?: Opt<boolean>; force_push_allowlist_deploy_keys?: Opt<boolean>;
  enable_merge_whitelist?: Opt<boolean>; enable_status_check?: Opt<boolean>; status_check_contexts?: Opt<string[]>;
  required_approvals?: Opt<number>; enable_approvals_whitelist?: Opt<boolean>;
  block_on_rejected_reviews?: Opt<boolean>; block_on_official_review_requests?: Opt<boolean>;
  block_on_outdated_branch?: Opt<boolean>; dismiss_stale_approvals?: Opt<boolean>; ignore_stale_approvals?: Opt<boolean>;
  require_signed_commits?: Opt<boolean>; protected_file_patterns?: Opt<string>; unprotected_file_patterns?: Opt<string>;
  block_admin_merge_override?: Opt<boolean>;
} & Partial<Record<ListField, Opt<string[]>>>;

type ListField = (typeof LISTS)[number]['users' | 'teams'];
type IdKey = keyof Pick<ProtectionSettings, { [K in keyof ProtectionSettings]: ProtectionSettings[K] extends number[] ? K : never }[keyof ProtectionSettings]>;

// Each whitelist: its API fields, its stored id lists, and the access a listed user must keep.
const LISTS = [
  { users: 'push_whitelist_usernames', teams: 'push_whitelist_teams', userIds: 'whitelist_user_ids', teamIds: 'whitelist_team_ids', min: ACCESS.write },
  { users: 'force_push_allowlist_usernames', teams: 'force_push_allowlist_teams', userIds: 'force_push_allowlist_user_ids', teamIds: 'force_push_allowlist_team_ids', min: ACCESS.write },
  { users: 'merge_whitelist_usernames', teams: 'merge_whitelist_teams', userIds: 'merge_whitelist_user_ids', teamIds: 'merge_whitelist_team_ids', min: ACCESS.write },
  { users: 'approvals_whitelist_username', teams: 'approvals_whitelist_teams', userIds: 'approvals_whitelist_user_ids', teamIds: 'approvals_whitelist_team_ids', min: ACCESS.read },
] as const satisfies readonly { users: string; teams: string; userIds: IdKey; teamIds: IdKey; min: number }[];

export type WhitelistNames = Record<ListField, string[]>;
export type BranchProtectionView = { rule: ProtectionRule; names: WhitelistNames };

const notFound = () => new NotFoundError();

/** Given lists replace the stored ones (names checked: 422); absent lists stay. */
async function applyLists(db: DB, access: RepoAccess, input: ProtectionInput, s: ProtectionSettings): Promise<void> {
  for (const l of LISTS) {
    const users = input[l.users];
    if (users != null) s[l.userIds] = await keepWithAccess(db, access, await userIdsByNames(db, users), l.min);
    const teams = input[l.teams];
    if (teams != null) s[l.teamIds] = await teamIdsByNames(db, access.owner, teams);
  }
}

const SIMPLE = [
  'enable_merge_whitelist', 'enable_status_check', 'enable_approvals_whitelist', 'block_on_rejected_reviews',
  'block_on_official_review_requests', 'block_on_outdated_branch', 'dismiss_stale_approvals', 'ignore_stale_approvals',
  'require_signed_commits', 'protected_file_patterns', 'unprotected_file_patterns', 'block_admin_merge_override',
  'status_check_contexts',
] as const;

function applySimple(input: ProtectionInput, s: ProtectionSettings): void {
  for (const k of SIMPLE) {
    const v = input[k];
    if (v != null) (s as Record<string, unknown>)[k] = v;
  }
  if (input.required_approvals != null && input.required_approvals >= 0) s.required_approvals = input.required_approvals;
}

async function viewOf(db: DB, access: RepoAccess, rule: ProtectionRule): Promise<BranchProtectionView> {
  const names = {} as WhitelistNames;
  for (const l of LISTS) {
    names[l.users] = await userNamesOf(db, access, rule.s[l.userIds], ACCESS.read);
    names[l.teams] = await teamNamesOf(db, rule.s[l.teamIds]);
  }
  return { rule, names };
}

async function ruleByName(db: DB, access: RepoAccess, name: string): Promise<ProtectionRule> {
  const row = await getProtectedBranchByName(db, access.repo.id, name);
  if (!row) throw notFound();
  return toRule(row);
}

/** In matching order, as Gitea lists them: plain names first, then by priority. */
export async function listBranchProtections(db: DB, access: RepoAccess): Promise<BranchProtectionView[]> {
  const rules = sortRules((await listProtectedBranches(db, access.repo.id)).map(toRule));
  return Promise.all(rules.map((r) => viewOf(db, access, r)));
}

export async function getBranchProtection(db: DB, access: RepoAccess, name: string): Promise<BranchProtectionView> {
  return viewOf(db, access, await ruleByName(db, access, name));
}

/** As Gitea: push sub-options only count when push is on, force push options when it is on too. */
export async function createBranchProtection(db: DB, access: RepoAccess, input: ProtectionInput): Promise<BranchProtectionView> {
  const ruleName = input.rule_name || input.branch_name || '';
  if (!ruleName) throw new BadRequestError('both rule_name and branch_name are empty');
  if (await getProtectedBranchByName(db, access.repo.id, ruleName)) throw new ForbiddenError('Branch protection already exist');
  const push = !!input.enable_push;
  const force = push && !!input.enable_force_push;
  const s: ProtectionSettings = {
    ...DEFAULT_PROTECTION,
    can_push: push,
    enable_whitelist: push && !!input.enable_push_whitelist,
    whitelist_deploy_keys: push && !!input.enable_push_whitelist && !!input.push_whitelist_deploy_keys,
    can_force_push: force,
    enable_force_push_allowlist: force && !!input.enable_force_push_allowlist,
    force_push_allowlist_deploy_keys: force && !!input.enable_force_push_allowlist && !!input.force_push_allowlist_deploy_keys,
  };
  applySimple(input, s);
  await applyLists(db, access, input, s);
  const priority = input.priority || (await maxProtectedBranchPriority(db, access.repo.id)) + 1;
  const now = nowUnix();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertProtectedBranch(trx, {
      repo_id: access.repo.id, rule_name: ruleName, priority, settings: JSON.stringify(s), created_unix: now, updated_unix: now,
    });
    await recordAudit(trx, { op: 'repo.branch_protection.create', target: branchRuleTarget(inserted.id, ruleName), repo: access.repo });
    return inserted;
  });
  return viewOf(db, access, toRule(row));
}

const branchRuleTarget = (id: number, name: string): AuditTarget => ({ type: 'protected_branch', id, name });

/** Gitea's cascade: turning push (or force push) off clears its whitelist switches. */
function applySwitches(input: ProtectionInput, s: ProtectionSettings): void {
  if (input.enable_push != null) {
    s.can_push = input.enable_push;
    if (!input.enable_push) {
      s.enable_whitelist = false;
      s.whitelist_deploy_keys = false;
    } else if (input.enable_push_whitelist != null) {
      s.enable_whitelist = input.enable_push_whitelist;
      if (!input.enable_push_whitelist) s.whitelist_deploy_keys = false;
      else if (input.push_whitelist_deploy_keys != null) s.whitelist_deploy_keys = input.push_whitelist_deploy_keys;
    }
  }
  if (input.enable_force_push != null) {
    s.can_force_push = input.enable_force_push;
    if (!input.enable_force_push) {
      s.enable_force_push_allowlist = false;
      s.force_push_allowlist_deploy_keys = false;
    } else if (input.enable_force_push_allowlist != null) {
      s.enable_force_push_allowlist = input.enable_force_push_allowlist;
      if (!input.enable_force_push_allowlist) s.force_push_allowlist_deploy_keys = false;
      else if (input.force_push_allowlist_deploy_keys != null) s.force_push_allowlist_deploy_keys = input.force_push_allowlist_deploy_keys;
    }
  }
}

export async function editBranchProtection(db: DB, access: RepoAccess, name: string, input: ProtectionInput): Promise<BranchProtectionView> {
  const rule = await ruleByName(db, access, name);
  const s = { ...rule.s };
  applySwitches(input, s);
  applySimple(input, s);
  await applyLists(db, access, input, s);
  const priority = input.priority ?? rule.row.priority;
  await db.transaction().execute(async (trx) => {
    await updateProtectedBranch(trx, rule.row.id, { settings: JSON.stringify(s), priority, updated_unix: nowUnix() });
    await recordAudit(trx, { op: 'repo.branch_protection.update', target: branchRuleTarget(rule.row.id, rule.row.rule_name), repo: access.repo });
  });
  return getBranchProtection(db, access, name);
}

export async function deleteBranchProtection(db: DB, access: RepoAccess, name: string): Promise<void> {
  const rule = await ruleByName(db, access, name);
  await db.transaction().execute(async (trx) => {
    await deleteProtectedBranch(trx, rule.row.id);
    await recordAudit(trx, { op: 'repo.branch_protection.delete', target: branchRuleTarget(rule.row.id, rule.row.rule_name), repo: access.repo });
  });
}

/** The rules in `ids` get priorities 1, 2, ... in that order; ids of other repositories are ignored. */
export async function setBranchProtectionPriorities(db: DB, access: RepoAccess, ids: number[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [i, id] of ids.entries()) await setProtectedBranchPriority(trx, access.repo.id, id, i + 1);
  });
}

/** Every rule of the repository, for matching branches against. */
export async function loadRules(db: DB, repoId: number): Promise<ProtectionRule[]> {
  return (await listProtectedBranches(db, repoId)).map(toRule);
}
