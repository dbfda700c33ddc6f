import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Issue, Repository, TrackedTime, User } from '../../db/schema';
import { issuesByIds } from '../../models/issue';
import { assigneeIdsOfIssues } from '../../models/issue-assignee';
import { usersByIds } from '../../models/user-lookup';
import { canWrite, type IssueCtx } from './issue-access';
import { issueViews, type IssueView } from './issue-views';
import { settingsOf } from '../repo/repo-settings';
import type { Hearth } from '../../hearth';

// Gitea's IsTimetrackerEnabled and CanUseTimetracker, and the views of tracked times.

/** The site switch, then the repository's internal tracker. */
export const trackerEnabled = (config: Config, repo: Repository): boolean =>
  config.repository.enable_time_tracking && settingsOf(repo).internal_tracker.enable_time_tracker;

/** Enabled, and either open to all or the caller is a writer, the poster or an assignee. */
export async function canUseTracker(h: Hearth, ctx: IssueCtx, issue: Issue, doer: User): Promise<boolean> {
  if (!trackerEnabled(h.config, ctx.repo)) return false;
  if (!settingsOf(ctx.repo).internal_tracker.allow_only_contributors_to_track_time) return true;
  if (canWrite(ctx, issue.is_pull) || issue.poster_id === doer.id) return true;
  return (await assigneeIdsOfIssues(h.db, [issue.id])).some((a) => a.assignee_id === doer.id);
}

export type TimeView = { time: TrackedTime; user: User | undefined; issue: IssueView | undefined };

/** Times with their users and issues (any repositories), in the given order. */
export async function timeViews(db: DB, times: TrackedTime[]): Promise<TimeView[]> {
  const users = new Map((await usersByIds(db, [...new Set(times.map((t) => t.user_id))])).map((u) => [u.id, u]));
  const issues = await issueViews(db, await issuesByIds(db, [...new Set(times.map((t) => t.issue_id))]));
  const issueOf = new Map(issues.map((v) => [v.issue.id, v]));
  return times.map((time) => ({ time, user: users.get(time.user_id), issue: issueOf.get(time.issue_id) }));
}
