import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { updateRef, type Signature } from '../../git/commit';
import { isValidBranchName, listRefNames, refTarget } from '../../git/refs';
import { zeroId } from '../../git/repo';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { dirOfRepo } from './contents-paths';
import { loadRules } from './protected-branches';
import { canUserPush, effectiveRule, filePatterns, matchesFile } from './protection-rules';
import { moveRefDurably } from './ref-intent';
import { withRefsLock } from './refs-lock';
import { finishLeftRefMoves } from '../recovery/left-ref-moves';
import type { RepoAccess } from './repos';
import { hostOf } from '../../lib/url-host';
import type { Hearth } from '../../hearth';

// What every API commit shares (file changes and patches): the branches it reads and writes,
// who may write there, the identities and message, and landing it with a compare-and-swap.

export type Identity = { name?: string | null; email?: string | null };
export type CommitOptions = {
  branch?: string | null;
  newBranch?: string | null;
  message?: string | null;
  author?: Identity | null;
  committer?: Identity | null;
  dates?: { author?: Date | null; committer?: Date | null } | null;
  signoff?: boolean | null;
};

export type CommitTarget = {
  dir: string;
  oldBranch: string;
  newBranch: string;
  /** Head of oldBranch; null when the repository has no branch yet. */
  parent: string | null;
};

async function assertBranchName(name: string, field: string): Promise<void> {
  if (!(await isValidBranchName(name))) throw new InvalidError(`[${field}]: invalid branch name`, field);
}

/** Gitea's VerifyBranchProtection on the branch written to: push rights, file patterns, signing. */
async function verifyProtection(db: DB, access: RepoAccess, doer: User, branch: string, paths: string[]): Promise<void> {
  const rule = effectiveRule(await loadRules(db, access.repo.id), branch);
  if (!rule) return;
  const cannot = new ForbiddenError(`user cannot commit to repo [user: ${doer.lower_name}]`);
  const canPush = await canUserPush(db, rule, { user: doer, mode: access.mode });
  const unprotected = filePatterns(rule.s.unprotected_file_patterns);
  const protectedFiles = filePatterns(rule.s.protected_file_patterns);
  for (const p of paths) {
    if (!canPush && !(unprotected.length && matchesFile(unprotected, p))) throw cannot;
    if (matchesFile(protectedFiles, p)) throw new ForbiddenError(`path is protected and can not be changed [path: ${p}]`);
  }
  if (!canPush && !paths.length) throw cannot;
  // hearth does not sign commits, so a rule asking for signed ones refuses them.
  if (rule.s.require_signed_commits) throw cannot;
}

/**
 * Checks names, existence and rights, in Gitea's order: the old branch must exist (unless the
 * repository has none yet), a new branch must not.
 */
export async function prepareTarget(
  h: Hearth, access: RepoAccess, doer: User, opts: CommitOptions, paths: string[], allowEmpty: boolean,
): Promise<CommitTarget> {
  if (access.repo.is_mirror) throw new ForbiddenError('Git Repository is a mirror.');
  if (opts.branch) await assertBranchName(opts.branch, 'branch');
  if (opts.newBranch) await assertBranchName(opts.newBranch, 'new_branch');
  const oldBranch = opts.branch || access.repo.default_branch;
  const newBranch = opts.newBranch || oldBranch;
  const dir = dirOfRepo(h.config, access);
  const parent = await refTarget(dir, `refs/heads/${oldBranch}`);
  if (!parent) {
    const hasBranches = (await listRefNames(dir)).some((r) => r.startsWith('refs/heads/'));
    if (hasBranches || !allowEmpty) throw new NotFoundError(`branch does not exist [name: ${oldBranch}]`);
  }
  if (newBranch !== oldBranch && (await refTarget(dir, `refs/heads/${newBranch}`))) {
    throw new InvalidError(`branch already exists [name: ${newBranch}]`);
  }
  await verifyProtection(h.db, access, doer, newBranch, newBranch === oldBranch ? paths : []);
  return { dir, oldBranch, newBranch, parent };
}

const noReply = (config: Config, u: User) => `${u.lower_name}@noreply.${hostOf(config.server.root_url)}`;

/** As Gitea: if only one identity is given it is used for both; missing parts come from the doer. */
export function signatures(config: Config, doer: User, opts: CommitOptions): { author: Signature; committer: Signature } {
  const given = (i?: Identity | null) => (i && (i.name || i.email) ? i : null);
  const a = given(opts.author) ?? given(opts.committer);
  const c = given(opts.committer) ?? a;
  const self = { name: doer.full_name || doer.name, email: doer.keep_email_private ? noReply(config, doer) : doer.email };
  const sig = (i: Identity | null, date?: Date | null): Signature => ({
    name: i?.name || self.name, email: i?.email || self.email, ...(date ? { date } : {}),
  });
  return { author: sig(a, opts.dates?.author), committer: sig(c, opts.dates?.committer) };
}

/** The trimmed message (or the default), with a Signed-off-by trailer by the committer if asked. */
export function commitMessage(opts: CommitOptions, fallback: string, committer: Signature): string {
  const message = (opts.message ?? '').trim() || fallback;
  return opts.signoff ? `${message}\n\nSigned-off-by: ${committer.name} <${committer.email}>` : message;
}

/** Moves newBranch to `commit` only if nobody moved it meanwhile (409), then syncs the database. */
export async function landCommit(h: Hearth, access: RepoAccess, doer: User, t: CommitTarget, commit: string): Promise<void> {
  const expected = t.newBranch === t.oldBranch ? t.parent : null;
  const zero = zeroId(access.repo.object_format_name);
  const ref = `refs/heads/${t.newBranch}`;
  const moved = await moveRefDurably(h.db, access.repo, doer, t.dir, { ref, oldId: expected ?? zero, newId: commit }, 'commit',
    () => updateRef(t.dir, ref, commit, expected, zero));
  if (!moved) throw new ConflictError(`branch ${t.newBranch} was updated meanwhile, try again`);
}

/**
 * An API commit in `fn`, one at a time per repository (the refs it moves are followed through
 * refsMoved, as after a push), after any merge a dead node left half-recorded.
 */
export async function commitUnderLock<T>(h: Hearth, access: RepoAccess, fn: () => Promise<T>): Promise<T> {
  return withRefsLock(access.repo.id, async () => {
    await finishLeftRefMoves(h, access.repo);
    return fn();
  });
}
