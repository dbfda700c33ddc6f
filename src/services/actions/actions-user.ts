import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import type { ScopeSet } from '../../lib/scopes';
import { hashToken, looksLikeToken } from '../../lib/token';
import { runningTaskByTokenHash } from '../../models/actions-tasks';

// A task's job token (GITEA_TOKEN / GITHUB_TOKEN) signs in as Gitea's pseudo user
// `gitea-actions` (id -2), with write access to the task's repository and nothing more, only
// while the task runs (the hash is cleared when the task stops).

export const ACTIONS_USER_ID = -2;
export const ACTIONS_USER_NAME = 'gitea-actions';

/** The repository each pseudo user object may write to; one object per authenticated request. */
const taskRepo = new WeakMap<User, number>();

function actionsUser(repoId: number): User {
  const now = Math.floor(Date.now() / 1000);
  // Not a row: the fields any code may read of a user, with Gitea's values for the actions user.
  const user = {
    id: ACTIONS_USER_ID, name: ACTIONS_USER_NAME, lower_name: ACTIONS_USER_NAME, full_name: ACTIONS_USER_NAME,
    email: 'teabot@gitea.io', keep_email_private: 1, passwd: '', passwd_hash_algo: '', must_change_password: 0,
    login_source: 0, login_name: '', type: 0, location: '', website: '', description: '', language: '', theme: '',
    diff_view_style: '', is_active: 1, is_admin: 0, is_restricted: 0, prohibit_login: 0, allow_git_hook: 0,
    allow_import_local: 0, allow_create_organization: 0, hide_activity: 1, visibility: 0, max_repo_creation: 0,
    num_followers: 0, num_following: 0, num_stars: 0, num_repos: 0, created_unix: now, updated_unix: now,
    last_login_unix: 0, repo_admin_change_team_access: 0, avatar: '',
  } as User;
  taskRepo.set(user, repoId);
  return user;
}

/** The repository an actions pseudo user acts on, or undefined for any other user. */
export function actionsUserRepoId(user: User): number | undefined {
  return user.id === ACTIONS_USER_ID ? taskRepo.get(user) ?? 0 : undefined;
}

/** What a job token may do through the API: repository, issue and package work. */
function jobScopes(): ScopeSet {
  return { all: false, publicOnly: false, granted: new Map([['repository', 'write'], ['issue', 'write'], ['package', 'write']]) };
}

/** A running task's job token: the pseudo user bound to its repository; null otherwise. */
export async function authenticateJobToken(db: DB, token: string): Promise<{ user: User; scopes: ScopeSet } | null> {
  const value = token.trim();
  if (!looksLikeToken(value)) return null;
  const task = await runningTaskByTokenHash(db, hashToken(value));
  return task ? { user: actionsUser(task.repo_id), scopes: jobScopes() } : null;
}

/**
 * A job token changes nothing outside repositories: user-level writes (keys, tokens, new
 * repositories, follows...) would be made for a user that has no row. Reads and repository
 * routes go on, where the permission check limits it to its task's repository.
 */
export function jobTokenMayCall(user: User, method: string, apiPath: string): boolean {
  if (actionsUserRepoId(user) === undefined) return true;
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || apiPath.startsWith('/repos/');
}
