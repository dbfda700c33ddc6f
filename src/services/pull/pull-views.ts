import type { DB } from '../../db/connect';
import type { Issue, PullRequest, User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import { NotFoundError } from '../../lib/errors';
import { getPullByIssueId, pullsByIssueIds } from '../../models/pull';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { countReviewComments, reviewRequests } from '../../models/review';
import { usersByIds } from '../../models/user-lookup';
import { issueCtx, readableIssue, type IssueCtx } from '../issue/issue-access';
import { issueViews } from '../issue/issue-views';
import { refreshPull, refreshPulls } from './pull-git';
import { accessOf, type RepoAccess } from '../repo/repos';
import { ACCESS } from '../permissions';
import { reviewTeamsByIds, teamsOfRequests } from './review-teams';
import type { Hearth } from '../../hearth';

// Loading pull requests for their JSON: the issue row, the pull row (refreshed when a tip
// moved) and the head repository as the caller sees it.

export type LoadedPull = { ctx: IssueCtx; issue: Issue; pr: PullRequest };

/** `{index}` as a pull request readable by the caller, else 404. */
export async function loadPull(h: Hearth, access: RepoAccess, doer: User | null, index: number, refresh = true): Promise<LoadedPull> {
  const ctx = await issueCtx(h.db, access, doer);
  const issue = await readableIssue(h.db, ctx, index);
  const row = issue.is_pull ? await getPullByIssueId(h.db, issue.id) : undefined;
  if (!row) throw new NotFoundError(`pull request does not exist [repo_id: ${access.repo.id}, index: ${index}]`);
  return { ctx, issue, pr: refresh ? await refreshPull(h, row) : row };
}

async function headAccess(db: DB, pr: PullRequest, base: RepoAccess, viewer: User | null): Promise<RepoAccess | null> {
  if (pr.head_repo_id === base.repo.id) return base;
  const repo = await getRepoById(db, pr.head_repo_id);
  const access = repo ? await accessOf(db, repo, viewer) : null;
  // A head repository the caller cannot see is left out, as a deleted one.
  return access && access.mode > ACCESS.none ? access : null;
}

/** Views of pull rows of one repository, in the order of `issues`. */
export async function pullViews(h: Hearth, base: RepoAccess, issues: Issue[], viewer: User | null): Promise<PullView[]> {
  const rows = new Map((await pullsByIssueIds(h.db, issues.map((i) => i.id))).map((p) => [p.issue_id, p]));
  const listed = issues.map((i) => rows.get(i.id));
  const refreshed = await refreshPulls(h, listed.filter((r): r is PullRequest => !!r));
  const byIssue = new Map(refreshed.map((p) => [p.issue_id, p]));
  const fresh = listed.map((r) => (r ? byIssue.get(r.issue_id) : undefined));
  const views = await issueViews(h.db, issues, base);
  const requests = await reviewRequests(h.db, issues.map((i) => i.id));
  const lineComments = await countReviewComments(h.db, issues.map((i) => i.id));
  const requestedUsers = new Map((await usersByIds(h.db, [...new Set(requests.map((r) => r.reviewer_id))])).map((u) => [u.id, u]));
  const requestedOf = (issueId: number) => requests.filter((r) => r.issue_id === issueId)
    .map((r) => requestedUsers.get(r.reviewer_id)).filter((u): u is User => !!u);
  const requestedTeams = await reviewTeamsByIds(h.db, requests.map((r) => r.reviewer_team_id));
  const teamsOf = (issueId: number) => teamsOfRequests(requests.filter((r) => r.issue_id === issueId), requestedTeams);
  const out: PullView[] = [];
  for (const [n, view] of views.entries()) {
    const pr = fresh[n];
    if (!pr) continue;
    const mergedBy = pr.merged_by ? (await getUserById(h.db, pr.merged_by)) ?? null : null;
    out.push({ issue: view, pr, base, head: await headAccess(h.db, pr, base, viewer), mergedBy, requested: requestedOf(pr.issue_id), requestedTeams: teamsOf(pr.issue_id), reviewComments: lineComments.get(pr.issue_id) ?? 0 });
  }
  return out;
}

export async function pullView(h: Hearth, base: RepoAccess, issue: Issue, viewer: User | null): Promise<PullView> {
  const [view] = await pullViews(h, base, [issue], viewer);
  if (!view) throw new NotFoundError('pull request does not exist');
  return view;
}

/** GET /repos/{owner}/{repo}/pulls/{index} */
export async function getPull(h: Hearth, access: RepoAccess, doer: User | null, index: number): Promise<PullView> {
  const { issue } = await loadPull(h, access, doer, index);
  return pullView(h, access, issue, doer);
}
