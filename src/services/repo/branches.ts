import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { deleteRef, updateRef } from '../../git/commit';
import { commitInfos, isValidBranchName, listRefNames, refTarget, renameBranchRef, type CommitInfo } from '../../git/refs';
import { repoDir, revParse, zeroId } from '../../git/repo';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { countBranchRows, listBranchRowsPage } from '../../models/branch';
import { getProtectedBranchByName, updateProtectedBranch } from '../../models/protected-branch';
import { updateRepo } from '../../models/repo';
import { userNamesByEmails } from '../../models/user-lookup';
import { ACCESS } from '../permissions';
import { loadRules } from './protected-branches';
import { canUserMerge, canUserPush, effectiveRule, type ProtectionRule } from './protection-rules';
import type { RepoAccess } from './repos';
import { crashPoint } from '../../lib/crash-point';
import { moveRefDurably } from './ref-intent';
import { refsMoved } from './refs-moved';
import type { Hearth } from '../../hearth';

/** What the Branch JSON needs: the head commit, its governing rule and the caller's rights. */
export type BranchView = {
  name: string;
  commit: CommitInfo;
  /** Lower-cased emails of the commit's author and committer to user names, when they are users. */
  userNames: Map<string, string>;
  rule: ProtectionRule | null;
  userCanPush: boolean;
  userCanMerge: boolean;
};

const dirOf = (config: Config, a: RepoAccess) => repoDir(config.repository.root, a.owner.name, a.repo.name);

async function viewsOf(db: DB, dir: string, access: RepoAccess, doer: User | null, heads: { name: string; sha: string }[]): Promise<BranchView[]> {
  const rules = await loadRules(db, access.repo.id);
  const commits = await commitInfos(dir, heads.map((h) => h.sha));
  const userNames = await userNamesByEmails(db, [...commits.values()].flatMap((c) => [c.author.email, c.committer.email]));
  const views: BranchView[] = [];
  for (const h of heads) {
    const commit = commits.get(h.sha);
    if (!commit) continue; // moved or gone since the list was read
    const rule = effectiveRule(rules, h.name);
    const p = doer ? { user: doer, mode: access.mode } : null;
    const writer = access.mode >= ACCESS.write;
    views.push({
      name: h.name, commit, userNames, rule,
      userCanPush: !!p && (rule ? await canUserPush(db, rule, p) : writer),
      userCanMerge: !!p && (rule ? await canUserMerge(db, rule, p) : writer),
    });
  }
  return views;
}

export async function listBranches(
  h: Hearth, access: RepoAccess, doer: User | null, page: { offset: number; limit: number },
): Promise<{ items: BranchView[]; total: number }> {
  if (access.repo.is_empty) return { items: [], total: 0 };
  const rows = await listBranchRowsPage(h.db, access.repo.id, page.offset, page.limit);
  const total = await countBranchRows(h.db, access.repo.id);
  const items = await viewsOf(h.db, dirOf(h.config, access), access, doer, rows.map((r) => ({ name: r.name, sha: r.commit_id })));
  return { items, total };
}

export async function getBranch(h: Hearth, access: RepoAccess, doer: User | null, name: string): Promise<BranchView> {
  const dir = dirOf(h.config, access);
  const sha = name ? await refTarget(dir, `refs/heads/${name}`) : null;
  if (!sha) throw new NotFoundError();
  const [view] = await viewsOf(h.db, dir, access, doer, [{ name, sha }]);
  if (!view) throw new NotFoundError();
  return view;
}

function assertWritableGit(access: RepoAccess): void {
  if (access.repo.is_empty) throw new NotFoundError('Git Repository is empty.');
  if (access.repo.is_mirror) throw new ForbiddenError('Git Repository is a mirror.');
}

async function assertBranchName(name: string, field: string): Promise<void> {
  if (!(await isValidBranchName(name))) throw new InvalidError(`[${field}]: invalid branch name`, field);
}

/** As Gitea's checkBranchName: an existing branch, a tag, or a path prefix clash are conflicts. */
async function assertNoRefConflict(dir: string, name: string): Promise<void> {
  for (const ref of await listRefNames(dir)) {
    if (ref.startsWith('refs/tags/') && ref === `refs/tags/${name}`) throw new ConflictError('The branch with the same tag already exists.');
    if (!ref.startsWith('refs/heads/')) continue;
    const b = ref.slice('refs/heads/'.length);
    if (b === name) throw new ConflictError('The branch already exists.');
    if (b.startsWith(`${name}/`) || name.startsWith(`${b}/`)) throw new ConflictError('The branch with the same name already exists.');
  }
}

export type CreateBranchInput = { name: string; oldBranch?: string; oldRef?: string };

/** The start point: old_ref_name (any commit-ish), else old_branch_name, else the default branch. */
async function startOf(dir: string, access: RepoAccess, input: CreateBranchInput): Promise<string> {
  if (input.oldRef) {
    const sha = input.oldRef.startsWith('-') ? null : await revParse(dir, `${input.oldRef}^{commit}`);
    if (!sha) throw new NotFoundError('The old ref does not exist');
    return sha;
  }
  const branch = input.oldBranch || access.repo.default_branch;
  const sha = await refTarget(dir, `refs/heads/${branch}`);
  if (!sha) throw new NotFoundError('The old branch does not exist');
  return sha;
}

export async function createBranch(h: Hearth, access: RepoAccess, doer: User, input: CreateBranchInput): Promise<BranchView> {
  assertWritableGit(access);
  await assertBranchName(input.name, 'new_branch_name');
  const dir = dirOf(h.config, access);
  const sha = await startOf(dir, access, input);
  await assertNoRefConflict(dir, input.name);
  const zero = zeroId(access.repo.object_format_name);
  const ref = `refs/heads/${input.name}`;
  const created = await moveRefDurably(h.db, access.repo, doer, dir, { ref, oldId: zero, newId: sha }, 'branch', () => updateRef(dir, ref, sha, null, zero));
  if (!created) throw new ConflictError('The branch already exists.');
  return getBranch(h, access, doer, input.name);
}

/** Not the default branch, not a protected one (Gitea checks both before existence). */
export async function deleteBranch(h: Hearth, access: RepoAccess, doer: User, name: string): Promise<void> {
  assertWritableGit(access);
  if (name === access.repo.default_branch) throw new ForbiddenError('can not delete default branch');
  if (effectiveRule(await loadRules(h.db, access.repo.id), name)) throw new ForbiddenError('branch protected');
  const dir = dirOf(h.config, access);
  const sha = name ? await refTarget(dir, `refs/heads/${name}`) : null;
  if (!sha) throw new NotFoundError();
  await deleteRef(dir, `refs/heads/${name}`, sha);
  crashPoint('branch.after-delete');
  await refsMoved(h.db, access.repo, doer, dir, [{ ref: `refs/heads/${name}`, oldId: sha, newId: zeroId(access.repo.object_format_name) }], 'branch');
}

const TARGET_EXISTS = 'Cannot rename a branch using the same name or rename to a branch that already exists.';
const ADMIN_ONLY = 'User must be a repo or site admin to rename default or protected branches.';
const GLOB_PROTECTED = 'Branch is protected by glob-based protection rules.';

/** Gitea's RenameBranch: checks in its order, then the ref, its exact-name rule and the default branch follow. */
export async function renameBranch(h: Hearth, access: RepoAccess, doer: User, from: string, to: string): Promise<void> {
  assertWritableGit(access);
  await assertBranchName(to, 'name');
  const dir = dirOf(h.config, access);
  const heads = (await listRefNames(dir)).filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice(11));
  if (from === to || heads.some((b) => b === to || b.startsWith(`${to}/`) || (b !== from && to.startsWith(`${b}/`)))) {
    throw new InvalidError(TARGET_EXISTS);
  }
  if (!heads.includes(from)) throw new NotFoundError('Branch doesn\'t exist.');
  const isAdmin = access.mode >= ACCESS.admin;
  const isDefault = from === access.repo.default_branch;
  const exactRule = await getProtectedBranchByName(h.db, access.repo.id, from);
  if ((isDefault || exactRule) && !isAdmin) throw new ForbiddenError(ADMIN_ONLY);
  const rules = await loadRules(h.db, access.repo.id);
  const targetRule = effectiveRule(rules, to);
  if (targetRule && !(await canUserPush(h.db, targetRule, { user: doer, mode: access.mode }))) throw new ForbiddenError(GLOB_PROTECTED);
  if (!exactRule && effectiveRule(rules, from)) throw new ForbiddenError(GLOB_PROTECTED);
  if (exactRule && (await getProtectedBranchByName(h.db, access.repo.id, to))) {
    throw new ConflictError(`a branch protection rule named ${to} already exists`);
  }
  const sha = (await refTarget(dir, `refs/heads/${from}`))!;
  await renameBranchRef(dir, from, to);
  if (exactRule) await updateProtectedBranch(h.db, exactRule.id, { rule_name: to });
  if (isDefault) await updateRepo(h.db, access.repo.id, { default_branch: to });
  // As Gitea's RenameBranch: the old name deleted, the new one created.
  const zero = zeroId(access.repo.object_format_name);
  await refsMoved(h.db, { ...access.repo, default_branch: isDefault ? to : access.repo.default_branch }, doer, dir, [
    { ref: `refs/heads/${from}`, oldId: sha, newId: zero }, { ref: `refs/heads/${to}`, oldId: zero, newId: sha },
  ], 'branch');
}
