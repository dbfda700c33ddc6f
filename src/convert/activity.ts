import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import { opName, type FeedItem, type OP_NAMES } from '../services/activity/activity';
import { toApiComment } from './comment';
import { toApiRepoWithParent } from './repo-view';
import { toApiUser } from './user';

/** Gitea's ToActivity: comment_id and comment only while the comment exists. */
export function toApiActivity(config: Config, { action, actor, repo, comment }: FeedItem, viewer: User | null) {
  return {
    id: action.id,
    user_id: action.user_id,
    // Rows hold only OP's values, each of which has its name.
    op_type: opName(action.op_type) as (typeof OP_NAMES)[number],
    act_user_id: action.act_user_id,
    act_user: toApiUser(config, actor, viewer),
    repo_id: action.repo_id,
    repo: toApiRepoWithParent(config, repo, viewer),
    comment_id: comment ? action.comment_id : 0,
    ...(comment ? { comment: toApiComment(config, comment, viewer) } : {}),
    ref_name: action.ref_name,
    is_private: action.is_private === 1,
    content: action.content,
    created: isoTime(action.created_unix),
  };
}
