import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { searchIssues } from '../issue/issue-list';
import type { IssueView } from '../issue/issue-views';
import { listOrgsOf } from '../org/orgs';
import { dashboardRepos, type RepoList } from './owner-pages';

// The signed-in dashboard and Gitea's /issues and /pulls across repositories: the same issue
// search as GET /repos/issues/search (what the user may see, filtered by their part in it),
// and the repositories the user owns or reaches through collaborations and teams.

/** Gitea's filter names on /issues and /pulls (`type=`). */
export const ISSUE_FILTERS = ['your_repositories', 'assigned', 'created_by', 'mentioned', 'review_requested', 'reviewed_by'] as const;
export type IssueFilterName = (typeof ISSUE_FILTERS)[number];
export const isIssueFilter = (s: unknown): s is IssueFilterName => ISSUE_FILTERS.includes(s as IssueFilterName);

export type IssueOverviewQuery = {
  kind: 'issues' | 'pulls'; filter: IssueFilterName; state: 'open' | 'closed';
  keyword: string; repoId: number | null; page: number;
};
export type IssueOverview = { items: IssueView[]; total: number; repos: RepoList };

export const OVERVIEW_PAGE = 20;
/** Repositories counted as "yours": the filter lists them; a user in more narrows by repository. */
const YOUR_REPOS_MAX = 500;

const yourRepos = (db: DB, user: User, keyword = '', limit = YOUR_REPOS_MAX) => dashboardRepos(db, user, { offset: 0, limit }, keyword);

/** One page of `/issues` or `/pulls`. */
export async function issueOverview(db: DB, user: User, q: IssueOverviewQuery): Promise<IssueOverview> {
  const repos = await yourRepos(db, user);
  const mine = repos.items.map((r) => r.repo.id);
  const only = q.repoId ? [q.repoId] : q.filter === 'your_repositories' ? mine : undefined;
  const { views, total } = await searchIssues(db, user, false, {
    type: q.kind, state: q.state, q: q.keyword || undefined, repoIds: only,
    page: { offset: (q.page - 1) * OVERVIEW_PAGE, limit: OVERVIEW_PAGE },
    assigned: q.filter === 'assigned', created: q.filter === 'created_by', mentioned: q.filter === 'mentioned',
    review_requested: q.filter === 'review_requested', reviewed: q.filter === 'reviewed_by',
  });
  return { items: views, total, repos };
}

export type Dashboard = {
  repos: RepoList; orgs: User[];
  assigned: IssueView[]; reviewRequests: IssueView[]; yourPulls: IssueView[]; mentions: IssueView[];
};

/** Items per dashboard list; each links to its full overview. */
const SHORT = 8;

const open = (db: DB, user: User, kind: 'issues' | 'pulls', f: Partial<Record<'assigned' | 'created' | 'mentioned' | 'review_requested', boolean>>) =>
  searchIssues(db, user, false, { type: kind, state: 'open', page: { offset: 0, limit: SHORT }, ...f }).then((r) => r.views);

/** `/` signed in: repositories (filtered by `keyword`), organizations, and what waits for the user. */
export async function dashboard(db: DB, user: User, keyword: string, page: { offset: number; limit: number }): Promise<Dashboard> {
  const [repos, orgs, assigned, reviewRequests, yourPulls, mentions] = await Promise.all([
    dashboardRepos(db, user, page, keyword),
    listOrgsOf(db, user, user, false, { offset: 0, limit: 50 }).then((r) => r.orgs),
    open(db, user, 'issues', { assigned: true }),
    open(db, user, 'pulls', { review_requested: true }),
    open(db, user, 'pulls', { created: true }),
    searchIssues(db, user, false, { state: 'open', mentioned: true, page: { offset: 0, limit: SHORT } }).then((r) => r.views),
  ]);
  return { repos, orgs, assigned, reviewRequests, yourPulls, mentions };
}
