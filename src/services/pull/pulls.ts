import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import { revParse } from '../../git/repo';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { getIssueById } from '../../models/issue';
import { reviewersOfRepo } from '../../models/issue-assignee';
import { findOpenPull, findPullByBranches, findPullByMergeCommit, forkOfOwner, insertPull } from '../../models/pull';
import { getRepoByOwnerAndName } from '../../models/repo';
import { getCollaboration } from '../../models/collaboration';
import { isOrgMember } from '../../models/team-access';
import { getUserByName } from '../../models/user';
import { createIssue, type CreateIssueInput } from '../issue/issues';
import { dirOfRepo, refreshPull } from './pull-git';
import { canRead, issueCtx } from '../issue/issue-access';
import { listPinned } from '../issue/issue-pins';
import { addReviewRequests, resolveReviewRequests, type ReviewRequestNames } from './pull-review-requests';
import { loadPull, pullView, pullViews } from './pull-views';
import { ACCESS, ORG_TYPE } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import { accessOf, unitModeOf, type RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

export type CreatePullInput = Omit<CreateIssueInput, 'pull' | 'closed' | 'ref'> & { head: string; base: string } & ReviewRequestNames;

type Head = { repo: Repository; access: RepoAccess; branch: string };

/**
 * `branch`, `owner:branch` or `owner/repo:branch`: another owner's head must be a fork of the
 * base (Gitea's parseCompareInfo); the caller must read it.
 */
export async function resolveHead(db: DB, base: RepoAccess, doer: User | null, spec: string): Promise<Head> {
  const colon = spec.indexOf(':');
  if (colon < 0) return { repo: base.repo, access: base, branch: spec };
  const [ownerPart, repoPart] = spec.slice(0, colon).split('/') as [string, string | undefined];
  const branch = spec.slice(colon + 1);
  const owner = await getUserByName(db, ownerPart);
  if (!owner) throw new NotFoundError(`user does not exist [name: ${ownerPart}]`);
  let repo: Repository | undefined;
  if (owner.id === base.owner.id && (!repoPart || repoPart.toLowerCase() === base.repo.lower_name)) repo = base.repo;
  else if (repoPart) repo = await getRepoByOwnerAndName(db, owner.id, repoPart);
  else repo = await forkOfOwner(db, owner.id, base.repo.id);
  if (!repo || (repo.id !== base.repo.id && repo.fork_id !== base.repo.id && base.repo.fork_id !== repo.id)) {
    throw new NotFoundError('the head repository is not a fork of the base repository');
  }
  const access = repo.id === base.repo.id ? base : await accessOf(db, repo, doer);
  if (access.mode < ACCESS.read) throw new NotFoundError('head repository does not exist');
  return { repo, access, branch };
}

/**
 * Who may open a pull request (Gitea's NewPullRequest): a site administrator, the base's owner,
 * a member of its organization or a collaborator on it; anyone else must write the head's code.
 */
async function assertMayOpenPull(db: DB, base: RepoAccess, head: Head, doer: User): Promise<void> {
  if (doer.is_admin || base.owner.id === doer.id) return;
  if (base.owner.type === ORG_TYPE && (await isOrgMember(db, base.owner.id, doer.id))) return;
  if (await getCollaboration(db, base.repo.id, doer.id)) return;
  if ((await unitModeOf(db, head.access, doer, 'repo.code')) >= ACCESS.write) return;
  throw new ForbiddenError('user should be a collaborator of the base repository, or have write access to the head repository');
}

async function branchTip(h: Hearth, repo: Repository, branch: string): Promise<string | null> {
  if (!branch) return null;
  return revParse(await dirOfRepo(h, repo), `refs/heads/${branch}`);
}

/** POST /repos/{owner}/{repo}/pulls */
export async function createPull(h: Hearth, base: RepoAccess, doer: User, input: CreatePullInput): Promise<PullView> {
  if (!settingsOf(base.repo).has_pull_requests) throw new NotFoundError();
  const head = await resolveHead(h.db, base, doer, input.head);
  await assertMayOpenPull(h.db, base, head, doer);
  if (head.repo.id === base.repo.id && head.branch === input.base) {
    throw new InvalidError('Invalid PullRequest: There are no changes between the head and the base', 'head');
  }
  if (!(await branchTip(h, base.repo, input.base))) throw new NotFoundError(`base branch does not exist [name: ${input.base}]`);
  if (!(await branchTip(h, head.repo, head.branch))) throw new NotFoundError(`head branch does not exist [name: ${head.branch}]`);
  const assertNoOpenPull = async (dbOrTrx: DB) => {
    const existing = await findOpenPull(dbOrTrx, head.repo.id, head.branch, base.repo.id, input.base);
    if (existing) {
      throw new ConflictError(`pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.issue_id}, head_repo_id: ${head.repo.id}, base_repo_id: ${base.repo.id}, head_branch: ${head.branch}, base_branch: ${input.base}]`);
    }
  };
  await assertNoOpenPull(h.db);
  // Checked before the pull exists, so a bad name leaves nothing half made (Gitea: 404 / 422).
  const { reviewers, team_reviewers: teamReviewers, ...issueInput } = input;
  const requests = await resolveReviewRequests(h.db, base, doer.id, { reviewers, team_reviewers: teamReviewers });
  const view = await createIssue(h.db, base, doer, {
    ...issueInput,
    pull: async (trx, issue) => {
      // Again inside the transaction: a concurrent creation may have landed since the check above.
      await assertNoOpenPull(trx);
      await insertPull(trx, {
        issue_id: issue.id, index: issue.index, head_repo_id: head.repo.id, base_repo_id: base.repo.id,
        head_branch: head.branch, base_branch: input.base,
        allow_maintainer_edit: settingsOf(base.repo).default_allow_maintainer_edit ? 1 : 0,
      });
    },
  });
  if (requests.users.length || requests.teams.length) {
    await addReviewRequests(h.db, base, await loadPull(h, base, doer, view.issue.index), doer, requests);
  }
  return pullView(h, base, view.issue, doer);
}

/** GET /repos/{owner}/{repo}/pulls/{base}/{head} */
export async function getPullByBranches(h: Hearth, base: RepoAccess, doer: User | null, baseBranch: string, headSpec: string): Promise<PullView> {
  const head = await resolveHead(h.db, base, doer, headSpec);
  const pr = await findPullByBranches(h.db, base.repo.id, baseBranch, head.repo.id, head.branch);
  const issue = pr ? await getIssueById(h.db, pr.issue_id) : undefined;
  if (!pr || !issue) throw new NotFoundError('pull request does not exist');
  await refreshPull(h, pr);
  return pullView(h, base, issue, doer);
}

export function assertPullsUnit(access: RepoAccess): void {
  if (!settingsOf(access.repo).has_pull_requests) throw new ForbiddenError('pull requests are disabled');
}

/** GET /repos/{owner}/{repo}/pulls/pinned */
export async function listPinnedPulls(h: Hearth, access: RepoAccess, doer: User | null): Promise<PullView[]> {
  const views = await listPinned(h.db, access, doer, true);
  return pullViews(h, access, views.map((v) => v.issue), doer);
}

/** GET /repos/{owner}/{repo}/commits/{sha}/pull: the pull request merged as this commit (full id, as Gitea). */
export async function pullOfMergeCommit(h: Hearth, access: RepoAccess, doer: User | null, sha: string): Promise<PullView> {
  const pr = await findPullByMergeCommit(h.db, access.repo.id, sha);
  const issue = pr ? await getIssueById(h.db, pr.issue_id) : undefined;
  if (!issue || !canRead(await issueCtx(h.db, access, doer), true)) throw new NotFoundError(`pull request does not exist [merged_commit_id: ${sha}]`);
  return pullView(h, access, issue, doer);
}

/** GET /repos/{owner}/{repo}/reviewers: who may be asked for a review (Gitea's GetReviewers). */
export async function listReviewers(db: DB, access: RepoAccess): Promise<User[]> {
  const isPublic = !access.repo.is_private && access.owner.visibility === 0;
  return reviewersOfRepo(db, access.repo.id, access.owner, isPublic);
}
