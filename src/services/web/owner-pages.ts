import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { searchRepos, type RepoSearch } from '../../models/repo-search';
import { usersByIds } from '../../models/user-lookup';
import { listMembers } from '../org/org-members';
import { lookupOrg } from '../org/orgs';
import { ORG_TYPE } from '../permissions';
import type { RepoAccess } from '../repo/repos';
import { getVisibleUser } from '../user/users';

// What the home page and the profile pages of users and organizations show. Visibility is
// the API's: the same repository search (GET /repos/search, /users/{u}/repos) and the same
// owner rules (GET /users/{u}, /orgs/{org}), so a page never lists what the API would hide.

type Page = { offset: number; limit: number };

/** A repository and its owner: what a list links to (`/{owner}/{repo}`). */
export type RepoItem = Pick<RepoAccess, 'repo' | 'owner'>;
export type RepoList = { items: RepoItem[]; total: number };

export type UserProfile = { kind: 'user'; user: User; repos: RepoList };
export type OrgProfile = {
  kind: 'org'; org: User; repos: RepoList; members: User[];
  /** Members and site admins reach the teams page. */
  seesTeams: boolean;
  /** Owners and site admins reach the settings. */
  manages: boolean;
};

/** Organization profiles show members up to this many (Gitea shows a short strip too). */
const MEMBER_STRIP = 24;

async function withOwners(db: DB, repos: Repository[]): Promise<RepoItem[]> {
  const owners = new Map((await usersByIds(db, [...new Set(repos.map((r) => r.owner_id))])).map((u) => [u.id, u]));
  return repos.flatMap((repo) => {
    const owner = owners.get(repo.owner_id);
    return owner ? [{ repo, owner }] : [];
  });
}

async function visibleRepos(db: DB, viewer: User | null, q: Partial<RepoSearch> & Pick<RepoSearch, 'sort' | 'order'> & Page): Promise<RepoList> {
  // A token that may see public things only arrives here as an anonymous viewer (the web guard).
  const { repos, total } = await searchRepos(db, { viewer, publicOnly: false, ...q });
  return { items: await withOwners(db, repos), total };
}

/** `/`: repositories the viewer may see, most recently updated first. */
export function recentRepos(db: DB, viewer: User | null, page: Page): Promise<RepoList> {
  return visibleRepos(db, viewer, { sort: 'updated', order: 'desc', ...page });
}

/**
 * `/{name}`: a user's or an organization's profile with the repositories the viewer may see,
 * newest update first; 404 when the account is missing or hidden from the viewer.
 */
export async function profileOf(db: DB, name: string, viewer: User | null, page: Page, keyword = ''): Promise<UserProfile | OrgProfile> {
  const user = await getVisibleUser(db, name, viewer);
  const repos = await visibleRepos(db, viewer, { ownerId: user.id, keyword: keyword || undefined, sort: 'updated', order: 'desc', ...page });
  if (user.type !== ORG_TYPE) return { kind: 'user', user, repos };
  const access = await lookupOrg(db, user.name, viewer);
  const { users } = await listMembers(db, access, viewer, { offset: 0, limit: MEMBER_STRIP });
  const admin = viewer?.is_admin === 1;
  return { kind: 'org', org: access.org, repos, members: users, seesTeams: access.isMember || admin, manages: access.isOwner || admin };
}

/**
 * The dashboard's "your repositories": owned, collaborated on and reached through teams, most
 * recently updated first; `keyword` filters them by name.
 */
export function dashboardRepos(db: DB, user: User, page: Page, keyword = ''): Promise<RepoList> {
  return visibleRepos(db, user, { ownerId: user.id, collaborate: true, keyword: keyword || undefined, sort: 'updated', order: 'desc', ...page });
}

/** `/explore/repos?q=`: repositories the viewer may see whose name (or description) holds the words. */
export function exploreRepos(db: DB, viewer: User | null, keyword: string, page: Page): Promise<RepoList> {
  return visibleRepos(db, viewer, { keyword: keyword || undefined, includeDescription: true, sort: keyword ? 'alpha' : 'updated', order: keyword ? 'asc' : 'desc', ...page });
}
