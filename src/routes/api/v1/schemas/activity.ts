import * as z from 'zod';
import { bool, dateTime, int, str } from './fields';
import { NotifySubjectType, StateType, User } from './accounts';
import { Comment } from './issues';
import { Repository } from './repos';

export const Activity = z.object({
  act_user: User,
  act_user_id: int,
  comment: Comment,
  comment_id: int,
  content: str,
  created: dateTime,
  id: int,
  is_private: bool,
  op_type: z.enum(['create_repo','rename_repo','star_repo','watch_repo','commit_repo','create_issue','create_pull_request','transfer_repo','push_tag','comment_issue','merge_pull_request','close_issue','reopen_issue','close_pull_request','reopen_pull_request','delete_tag','delete_branch','mirror_sync_push','mirror_sync_create','mirror_sync_delete','approve_pull_request','reject_pull_request','comment_pull','publish_release','pull_review_dismissed','pull_request_ready_for_review','auto_merge_pull_request']),
  ref_name: str,
  repo: Repository,
  repo_id: int,
  user_id: int,
}).partial();
export const NotificationCount = z.object({
  new: int,
}).partial();
export const NotificationSubject = z.object({
  html_url: str,
  latest_comment_html_url: str,
  latest_comment_url: str,
  state: StateType,
  title: str,
  type: NotifySubjectType,
  url: str,
}).partial();
export const NotificationThread = z.object({
  id: int,
  pinned: bool,
  repository: Repository,
  subject: NotificationSubject,
  unread: bool,
  updated_at: dateTime,
  url: str,
}).partial();
