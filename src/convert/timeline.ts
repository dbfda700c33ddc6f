import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { COMMENT_TYPE } from '../lib/comment-type';
import { secToHours } from '../lib/duration';
import { isoTime } from '../lib/time';
import type { TimelineView } from '../services/issue/issue-timeline';
import { toApiComment } from './comment';
import { ghostUser, issueHtmlUrl, toApiIssue, toIssueLabel } from './issue';
import { toApiMilestone } from './milestone';
import { toApiTeam } from './team';
import { toApiTrackedTime } from './tracked-time';
import { toApiUser } from './user';

/** Gitea's CommentType.String(), indexed by the type number. */
const TYPE_NAMES = [
  'comment', 'reopen', 'close', 'issue_ref', 'commit_ref', 'comment_ref', 'pull_ref', 'label', 'milestone', 'assignees',
  'change_title', 'delete_branch', 'start_tracking', 'stop_tracking', 'add_time_manual', 'cancel_tracking', 'added_deadline',
  'modified_deadline', 'removed_deadline', 'add_dependency', 'remove_dependency', 'code', 'review', 'lock', 'unlock',
  'change_target_branch', 'delete_time_manual', 'review_request', 'merge_pull', 'pull_push', 'project', 'project_board',
  'dismiss_review', 'change_issue_ref', 'pull_scheduled_merge', 'pull_cancel_scheduled_merge', 'pin', 'unpin',
  'change_time_estimate',
];

const TIME_TYPES: number[] = [COMMENT_TYPE.addTimeManual, COMMENT_TYPE.stopTracking, COMMENT_TYPE.deleteTimeManual];

/** Time comments store `|seconds` (Gitea 1.21+) and are shown in the legacy hours form. */
function bodyOf(v: TimelineView): string {
  const c = v.comment;
  if (c.content && TIME_TYPES.includes(c.type) && c.content.startsWith('|')) return secToHours(Number(c.content.slice(1)) || 0);
  return c.content;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Gitea's ToTimelineComment. */
export function toApiTimelineComment(config: Config, v: TimelineView, viewer: User | null) {
  const { comment: c, issue, repo } = v;
  const html = issueHtmlUrl(config, repo.owner, repo.repo, issue);
  return {
    id: c.id,
    type: TYPE_NAMES[c.type] ?? '',
    // Gitea renders the timeline's users without a viewer (ToUser(ctx, u, nil)).
    user: toApiUser(config, v.poster ?? ghostUser(), null),
    html_url: `${html}#issuecomment-${c.id}`,
    issue_url: issue.is_pull ? '' : html,
    pull_request_url: issue.is_pull ? html : '',
    body: bodyOf(v),
    created_at: isoTime(c.created_unix),
    updated_at: isoTime(c.updated_unix),
    old_project_id: 0,
    project_id: 0,
    old_title: c.old_title,
    new_title: c.new_title,
    old_milestone: v.oldMilestone ? toApiMilestone(v.oldMilestone) : null,
    milestone: v.milestone ? toApiMilestone(v.milestone) : null,
    tracked_time: v.trackedTime ? toApiTrackedTime(config, v.trackedTime, viewer) : null,
    old_ref: str(v.meta.old_ref),
    new_ref: str(v.meta.new_ref),
    ref_issue: v.refIssue ? toApiIssue(config, v.refIssue, viewer) : null,
    ref_comment: v.refComment ? toApiComment(config, v.refComment, viewer) : null,
    ref_action: str(v.meta.ref_action) || 'none',
    ref_commit_sha: c.commit_sha,
    review_id: Number(v.meta.review_id) || 0,
    label: v.label ? toIssueLabel(config, v.label, repo.owner, repo.repo) : null,
    assignee: v.assignee ? toApiUser(config, v.assignee, null) : null,
    assignee_team: v.assigneeTeam ? toApiTeam(config, v.assigneeTeam.team, v.assigneeTeam.units, v.assigneeTeam.org) : null,
    removed_assignee: c.removed_assignee === 1,
    resolve_doer: null,
    dependent_issue: v.dependentIssue ? toApiIssue(config, v.dependentIssue, viewer) : null,
  };
}
