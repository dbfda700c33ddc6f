import * as z from 'zod';
import { bool, dateTime, freeObject, int, str } from './fields';
import { StateType, Team, User } from './accounts';
import { Attachment, RepositoryMeta } from './repos';

export const Comment = z.object({
  assets: z.array(Attachment),
  body: str,
  created_at: dateTime,
  html_url: str,
  id: int,
  issue_url: str,
  original_author: str,
  original_author_id: int,
  pull_request_url: str,
  updated_at: dateTime,
  user: User,
}).partial();
export const Label = z.object({
  color: str,
  description: str,
  exclusive: bool,
  id: int,
  is_archived: bool,
  name: str,
  url: str,
}).partial();
export const Milestone = z.object({
  closed_at: dateTime.nullable(),
  closed_issues: int,
  created_at: dateTime,
  description: str,
  due_on: dateTime.nullable(),
  id: int,
  open_issues: int,
  state: StateType,
  title: str,
  updated_at: dateTime.nullable(),
}).partial();
export const PullRequestMeta = z.object({
  draft: bool,
  html_url: str,
  merged: bool,
  merged_at: dateTime.nullable(),
}).partial();
export const Issue = z.object({
  assets: z.array(Attachment),
  assignee: User.nullable(),
  assignees: z.array(User).nullable(),
  body: str,
  closed_at: dateTime.nullable(),
  comments: int,
  created_at: dateTime,
  due_date: dateTime.nullable(),
  html_url: str,
  id: int,
  is_locked: bool,
  labels: z.array(Label),
  milestone: Milestone.nullable(),
  number: int,
  original_author: str,
  original_author_id: int,
  pin_order: int,
  pull_request: PullRequestMeta.nullable(),
  ref: str,
  repository: RepositoryMeta,
  state: StateType,
  time_estimate: int,
  title: str,
  updated_at: dateTime,
  url: str,
  user: User,
}).partial();
export const IssueConfigContactLink = z.object({
  about: str,
  name: str,
  url: str,
}).partial();
export const IssueConfig = z.object({
  blank_issues_enabled: bool,
  contact_links: z.array(IssueConfigContactLink),
}).partial();
export const IssueConfigValidation = z.object({
  message: str,
  valid: bool,
}).partial();
export const IssueDeadline = z.object({
  due_date: dateTime,
}).partial();
export const IssueFormFieldType = z.string();
export const IssueFormFieldVisible = z.string();
export const IssueFormField = z.object({
  attributes: freeObject,
  id: str,
  type: IssueFormFieldType,
  validations: freeObject,
  visible: z.array(IssueFormFieldVisible),
}).partial();
export const IssueTemplateStringSlice = z.array(str);
export const IssueTemplate = z.object({
  about: str,
  assignees: IssueTemplateStringSlice,
  body: z.array(IssueFormField),
  content: str,
  file_name: str,
  labels: IssueTemplateStringSlice,
  name: str,
  ref: str,
  title: str,
}).partial();
export const NewIssuePinsAllowed = z.object({
  issues: bool,
  pull_requests: bool,
}).partial();
export const Reaction = z.object({
  content: str,
  created_at: dateTime,
  user: User,
}).partial();
export const StopWatch = z.object({
  created: dateTime,
  duration: str,
  issue_index: int,
  issue_title: str,
  repo_name: str,
  repo_owner_name: str,
  seconds: int,
}).partial();
export const TrackedTime = z.object({
  created: dateTime,
  id: int,
  issue: Issue.nullable(),
  issue_id: int,
  time: int,
  user_id: int,
  user_name: str,
}).partial();
export const TimelineComment = z.object({
  assignee: User.nullable(),
  assignee_team: Team.nullable(),
  body: str,
  created_at: dateTime,
  dependent_issue: Issue.nullable(),
  html_url: str,
  id: int,
  issue_url: str,
  label: Label.nullable(),
  milestone: Milestone.nullable(),
  new_ref: str,
  new_title: str,
  old_milestone: Milestone.nullable(),
  old_project_id: int,
  old_ref: str,
  old_title: str,
  project_id: int,
  pull_request_url: str,
  ref_action: str,
  ref_comment: Comment.nullable(),
  ref_commit_sha: str,
  ref_issue: Issue.nullable(),
  removed_assignee: bool,
  resolve_doer: User.nullable(),
  review_id: int,
  tracked_time: TrackedTime.nullable(),
  type: str,
  updated_at: dateTime,
  user: User,
}).partial();
