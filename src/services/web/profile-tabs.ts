import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { userFeed, type Feed } from '../activity/activity';
import { searchVisibleRepos, type RepoWithParent } from '../repo/repos';
import { listFollowers, listFollowing } from '../user/follows';
import { getVisibleUser } from '../user/users';

// The tabs of a user's profile beside its repositories, each through the service of its API
// twin: the public activity (GET /users/{u}/activities/feeds), the starred repositories
// (GET /users/{u}/starred) and who follows whom (GET /users/{u}/followers, /following).

type Page = { offset: number; limit: number };
export type ProfileTab = 'activity' | 'stars' | 'followers' | 'following';
export const PROFILE_TABS: readonly ProfileTab[] = ['activity', 'stars', 'followers', 'following'];

export type TabContent =
  | { tab: 'activity'; user: User; feed: Feed }
  | { tab: 'stars'; user: User; repos: RepoWithParent[]; total: number }
  | { tab: 'followers' | 'following'; user: User; users: User[]; total: number };

export async function profileTab(db: DB, name: string, viewer: User | null, tab: ProfileTab, page: Page): Promise<TabContent> {
  const user = await getVisibleUser(db, name, viewer);
  if (tab === 'activity') return { tab, user, feed: await userFeed(db, user, viewer, true, page) };
  if (tab === 'stars') {
    const { views, total } = await searchVisibleRepos(db, { viewer, starredBy: user.id, sort: 'alpha', order: 'asc', ...page });
    return { tab, user, repos: views, total };
  }
  const { users, total } = await (tab === 'followers' ? listFollowers : listFollowing)(db, user, viewer, page);
  return { tab, user, users, total };
}
