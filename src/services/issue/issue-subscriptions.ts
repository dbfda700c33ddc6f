import type { DB } from '../../db/connect';
import type { Issue, User } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { countIssueWatchers, getIssueWatch, isParticipant, isRepoWatcher, issueWatchers, upsertIssueWatch } from '../../models/issue-watch';
import { getUserByName } from '../../models/user';
import { issueCtx, readableIssue } from './issue-access';
import type { RepoAccess } from '../repo/repos';

// Issue subscriptions (Gitea's issue_subscription.go and CheckIssueWatch): an explicit
// row wins; otherwise watchers of the repository and participants are subscribed.

export async function isWatchingIssue(db: DB, user: User, issue: Issue): Promise<boolean> {
  const row = await getIssueWatch(db, user.id, issue.id);
  if (row) return row.is_watching === 1;
  return (await isRepoWatcher(db, user.id, issue.repo_id)) || isParticipant(db, user.id, issue.id);
}

/**
 * PUT/DELETE .../subscriptions/{user}: only the user or a site admin; answers whether the
 * state changed (Gitea: 201 when it did, 200 when it already was so).
 */
export async function setIssueSubscription(
  db: DB, access: RepoAccess, doer: User, index: number, userName: string, watch: boolean,
): Promise<boolean> {
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  const user = await getUserByName(db, userName);
  if (!user) throw new NotFoundError(`user does not exist [name: ${userName}]`);
  if (user.id !== doer.id && !doer.is_admin) {
    throw new ForbiddenError(`${doer.name} is not permitted to change subscriptions for ${user.name}`);
  }
  if ((await isWatchingIssue(db, user, issue)) === watch) return false;
  await upsertIssueWatch(db, user.id, issue.id, watch, nowUnix());
  return true;
}

/** GET .../subscriptions/check: the caller's state, with the issue for WatchInfo. */
export async function checkIssueSubscription(db: DB, access: RepoAccess, doer: User, index: number): Promise<{ issue: Issue; watching: boolean }> {
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  return { issue, watching: await isWatchingIssue(db, doer, issue) };
}

/** GET .../subscriptions: explicit subscribers. */
export async function listIssueSubscribers(
  db: DB, access: RepoAccess, doer: User | null, index: number, page: { offset: number; limit: number },
): Promise<{ users: User[]; total: number }> {
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  const [users, total] = await Promise.all([issueWatchers(db, issue.id, page), countIssueWatchers(db, issue.id)]);
  return { users, total };
}
