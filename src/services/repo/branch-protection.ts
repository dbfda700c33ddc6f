import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { changedFiles, isAncestor } from '../../git/refs';
import { zeroId } from '../../git/repo';
import { loadRules } from './protected-branches';
import {
  canUserForcePush, canUserPush, effectiveRule, filePatterns, matchesFile, type ProtectionRule, type Pusher,
} from './protection-rules';
import type { RepoAccess } from './repos';
import { checkTagPush } from './tag-protection';

export type GitView = { dir: string; env: Record<string, string> };

const HEADS = 'refs/heads/';

/**
 * Protected-branch and protected-tag rules on push (the pre-receive hook asks). Returns the
 * first refusal, in Gitea's words, or null when every update may land.
 */
export async function checkBranchProtection(
  db: DB, access: RepoAccess, doer: User, gitView: GitView, updates: RefUpdate[], opts: { deployKey?: boolean } = {},
): Promise<string | null> {
  const rules = await loadRules(db, access.repo.id);
  const zero = zeroId(access.repo.object_format_name);
  const pusher: Pusher = { user: doer, mode: access.mode, deployKey: opts.deployKey };
  for (const u of updates) {
    if (!u.ref.startsWith(HEADS)) continue;
    const branch = u.ref.slice(HEADS.length);
    const rule = effectiveRule(rules, branch);
    if (!rule) continue;
    const refusal = await checkUpdate(db, rule, pusher, gitView, { ...u, branch }, zero);
    if (refusal) return refusal;
  }
  return checkTagPush(db, access, doer, updates);
}

type BranchUpdate = RefUpdate & { branch: string };

/** Gitea's order: deletion, force push, protected files, then who may push at all. */
async function checkUpdate(
  db: DB, rule: ProtectionRule, pusher: Pusher, g: GitView, u: BranchUpdate, zero: string,
): Promise<string | null> {
  if (u.newId === zero) return `branch ${u.branch} is protected from deletion`;
  const created = u.oldId === zero;
  const force = !created && !(await isAncestor(g.dir, u.oldId, u.newId, g.env));
  if (force && !(await canUserForcePush(db, rule, pusher))) return `branch ${u.branch} is protected from force push`;
  const files = created ? [] : await changedFilesIfNeeded(rule, g, u);
  const protectedFile = files.find((f) => matchesFile(filePatterns(rule.s.protected_file_patterns), f));
  const allowed = !protectedFile && (force ? await canUserForcePush(db, rule, pusher) : await canUserPush(db, rule, pusher));
  if (allowed) return null;
  if (protectedFile) return `branch ${u.branch} is protected from changing file ${protectedFile}`;
  // Pushes touching only unprotected files are allowed even without push rights.
  const unprotected = filePatterns(rule.s.unprotected_file_patterns);
  if (unprotected.length && files.length && files.every((f) => matchesFile(unprotected, f))) return null;
  return `Not allowed to push to protected branch ${u.branch}`;
}

async function changedFilesIfNeeded(rule: ProtectionRule, g: GitView, u: BranchUpdate): Promise<string[]> {
  if (!rule.s.protected_file_patterns.trim() && !rule.s.unprotected_file_patterns.trim()) return [];
  return changedFiles(g.dir, u.oldId, u.newId, g.env);
}
