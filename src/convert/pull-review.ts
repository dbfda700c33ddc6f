import type { Config } from '../config/schema';
import type { ReviewComment, User } from '../db/schema';
import { isoTime } from '../lib/time';
import { REVIEW_TYPE } from '../models/review';
import type { ReviewView } from '../services/pull/pull-reviews';
import type { TeamReviewView } from '../services/pull/review-teams';
import { ghostUser, issueHtmlUrl } from './issue';
import { toApiTeam } from './team';
import { toApiUser } from './user';

const STATE = ['PENDING', 'APPROVED', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW'];

const pullUrls = (config: Config, v: ReviewView) => {
  const { ctx, issue } = v.loaded;
  const html = issueHtmlUrl(config, ctx.owner, ctx.repo, issue);
  return { html, api: `${config.server.root_url}api/v1/repos/${encodeURIComponent(ctx.owner.name)}/${encodeURIComponent(ctx.repo.name)}/pulls/${issue.index}` };
};

/** Gitea's ToPullReview: a team request has no user (null) and carries its team. */
export function toApiPullReview(config: Config, v: TeamReviewView, viewer: User | null) {
  const { review } = v;
  const urls = pullUrls(config, v);
  const user = review.reviewer_team_id ? null : toApiUser(config, v.reviewer ?? ghostUser(), viewer);
  return {
    id: review.id, user, team: v.team ? toApiTeam(config, v.team.team, v.team.units, v.team.org) : null,
    state: STATE[review.type] ?? 'COMMENT', body: review.content, commit_id: review.commit_id,
    stale: review.stale === 1, official: review.official === 1, dismissed: review.dismissed === 1,
    comments_count: v.comments.length, submitted_at: isoTime(review.created_unix), updated_at: isoTime(review.updated_unix),
    html_url: `${urls.html}#issuecomment-${v.eventCommentId ?? review.id}`, pull_request_url: urls.html,
  };
}

export function toApiReviewComment(config: Config, v: ReviewView, c: ReviewComment, viewer: User | null) {
  const urls = pullUrls(config, v);
  return {
    id: c.id, body: c.content, user: toApiUser(config, v.people?.get(c.poster_id) ?? v.reviewer ?? ghostUser(), viewer),
    resolver: c.resolve_doer_id ? toApiUser(config, v.people?.get(c.resolve_doer_id) ?? ghostUser(), viewer) : null,
    pull_request_review_id: c.review_id, created_at: isoTime(c.created_unix), updated_at: isoTime(c.updated_unix),
    path: c.path, commit_id: c.commit_id, original_commit_id: c.commit_id, diff_hunk: c.diff_hunk,
    position: c.line > 0 ? c.line : 0, original_position: c.line < 0 ? -c.line : 0,
    // Gitea's Comment.HTMLURL: a pending review's lines live on the files tab, a submitted one's in the conversation.
    html_url: `${urls.html}${v.review.type === REVIEW_TYPE.pending ? '/files' : ''}#issuecomment-${c.id}`, pull_request_url: urls.html,
  };
}
