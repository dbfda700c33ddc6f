import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import { opName, type FeedItem } from '../services/activity';
import { toApiRepoWithParent } from './repo-view';
import { toApiUser } from './user';

/**
 * Gitea's ToActivity. `comment` is left out rather than null while no activity carries one
 * (comment_id is then 0, as Gitea sends it without a loaded comment).
 */
export function toApiActivity(config: Config, { action, actor, repo }: FeedItem, viewer: User | null): Record<string, unknown> {
  return {
    id: action.id,
    user_id: action.user_id,
    op_type: opName(action.op_type),
    act_user_id: action.act_user_id,
    act_user: toApiUser(config, actor, viewer),
    repo_id: action.repo_id,
    repo: toApiRepoWithParent(config, repo, viewer),
    comment_id: 0,
    ref_name: action.ref_name,
    is_private: action.is_private === 1,
    content: action.content,
    created: isoTime(action.created_unix),
  };
}
