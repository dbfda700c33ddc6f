import type { DB } from '../../db/connect';
import type { PullRequest, User } from '../../db/schema';
import { git } from '../../git/exec';
import { listProtectedBranches } from '../../models/protected-branch';
import { REVIEW_TYPE, submittedReviews } from '../../models/review';
import { gpgKeysOfOwners } from '../../models/signing-keys';
import { effectiveRule, toRule } from '../repo/protection-rules';
import { commitSigner, type CommitSigner } from './instance-key';
import { verifyCommits } from './verify-commit';
import type { Hearth } from '../../hearth';

// Gitea's SignInitialCommit, SignCRUDAction, SignWikiCommit and SignMerge: the rules of
// [repository.signing] are checked in order and the first one that fails means "do not sign".
// hearth has no two-factor authentication, so `twofa` never holds (as for a Gitea user without 2FA).

const RULES = ['never', 'always', 'pubkey', 'twofa', 'parentsigned', 'basesigned', 'headsigned', 'commitssigned', 'approved'] as const;
type Rule = (typeof RULES)[number];

/** Gitea's signingModeFromStrings: never or always alone win; unknown names are dropped; none: never. */
export function rulesOf(list: string[]): Rule[] {
  const out: Rule[] = [];
  for (const raw of list) {
    const mode = raw.trim().toLowerCase() as Rule;
    if (mode === 'never' || mode === 'always') return [mode];
    if (RULES.includes(mode)) out.push(mode);
  }
  return out.length ? out : ['never'];
}

/** Checks of the rules that depend on the action; true: the rule holds. */
type Checks = Partial<Record<Rule, () => Promise<boolean>>>;

async function decide(h: Hearth, rules: string[], doer: User, checks: Checks): Promise<CommitSigner | null> {
  if (h.config.repository.signing.signing_key === 'none') return null;
  for (const rule of rulesOf(rules)) {
    if (rule === 'never' || rule === 'twofa') return null;
    if (rule === 'always') break;
    if (rule === 'pubkey') {
      if (!(await gpgKeysOfOwners(h.db, [doer.id])).length) return null;
      continue;
    }
    const check = checks[rule];
    // A rule that does not apply to this kind of commit is skipped, as Gitea's switch does.
    if (check && !(await check())) return null;
  }
  return commitSigner(h.config);
}

const verified = async (h: Hearth, dir: string, sha: string) =>
  (await verifyCommits(h, dir, [sha])).get(sha)?.verified ?? false;

/** The first commit of a new repository. */
export function signInitialCommit(h: Hearth, doer: User): Promise<CommitSigner | null> {
  return decide(h, h.config.repository.signing.initial_commit, doer, {});
}

/** A commit made through the contents API on top of `parent` (null: an empty repository). */
export function signCrudAction(h: Hearth, doer: User, dir: string, parent: string | null): Promise<CommitSigner | null> {
  return decide(h, h.config.repository.signing.crud_actions, doer, {
    parentsigned: async () => !!parent && verified(h, dir, parent),
  });
}

/** A wiki commit on top of the wiki's `head` (null: the first page). */
export function signWikiCommit(h: Hearth, doer: User, wikiDir: string, head: string | null): Promise<CommitSigner | null> {
  return decide(h, h.config.repository.signing.wiki, doer, {
    parentsigned: async () => !!head && verified(h, wikiDir, head),
  });
}

/** A merge, squash or rebase of `pr` from `head` onto `base`. */
export function signMerge(
  h: Hearth, doer: User, pr: PullRequest, dir: string, base: string, head: string,
): Promise<CommitSigner | null> {
  return decide(h, h.config.repository.signing.merges, doer, {
    approved: () => approved(h.db, pr),
    basesigned: () => verified(h, dir, base),
    headsigned: () => verified(h, dir, head),
    commitssigned: async () => {
      const forkPoint = (await git(['merge-base', base, head], { gitDir: dir })).trim();
      const shas = (await git(['rev-list', head, `^${forkPoint}`], { gitDir: dir })).split('\n').filter(Boolean);
      const results = await verifyCommits(h, dir, [head, ...shas]);
      return [...results.values()].every((v) => v.verified);
    },
  });
}

/** Gitea's GetGrantedApprovalsCount under the base branch's protection rule (none: not approved). */
async function approved(db: DB, pr: PullRequest): Promise<boolean> {
  const rule = effectiveRule((await listProtectedBranches(db, pr.base_repo_id)).map(toRule), pr.base_branch);
  if (!rule) return false;
  const reviews = await submittedReviews(db, pr.issue_id);
  return reviews.some((r) => r.type === REVIEW_TYPE.approve && r.official && !r.dismissed);
}
