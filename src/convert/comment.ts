import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { CommentView } from '../services/issue/issue-views';
import { ghostUser, issueHtmlUrl, toApiAttachment } from './issue';
import { toApiUser } from './user';

/**
 * Gitea's ToAPIComment: html_url points at the comment's anchor; issue_url or
 * pull_request_url (web URLs, as Gitea) depending on the kind of its issue.
 */
export function toApiComment(config: Config, view: CommentView, viewer: User | null) {
  const { comment, issue, repo } = view;
  const html = issueHtmlUrl(config, repo.owner, repo.repo, issue);
  return {
    id: comment.id,
    html_url: `${html}#issuecomment-${comment.id}`,
    pull_request_url: issue.is_pull ? html : '',
    issue_url: issue.is_pull ? '' : html,
    user: toApiUser(config, view.poster ?? ghostUser(), viewer),
    original_author: comment.original_author,
    original_author_id: comment.original_author_id,
    body: comment.content,
    assets: view.assets.map((a) => toApiAttachment(config, a)),
    created_at: isoTime(comment.created_unix),
    updated_at: isoTime(comment.updated_unix),
  };
}
