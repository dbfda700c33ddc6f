// The fields of Gitea's API payload JSON (modules/structs/hook.go) that the formats read.
// Typed loosely on purpose: the builders own the full shapes, these only name what is used.

import { pathEscape } from './go-compat';

export interface PUser {
  login: string;
  full_name?: string;
  avatar_url?: string;
  html_url?: string;
}

export interface PRepo {
  full_name: string;
  html_url: string;
}

export interface PCommit {
  id: string;
  message: string;
  url: string;
  author?: { name: string } | null;
}

export interface PIssue {
  id: number;
  number: number;
  title: string;
  body: string;
  html_url: string;
  /** For pull requests Gitea's API `url` is the web URL too. */
  url?: string;
  user: PUser;
  assignees?: PUser[] | null;
  milestone?: { id: number; title: string } | null;
  merged?: boolean;
}

interface Base {
  action?: string;
  /** Gitea's JSON key; `repo` is accepted as well for payloads built by hand. */
  repository?: PRepo;
  repo?: PRepo;
  sender: PUser;
}

export interface PushPayload extends Base {
  ref: string;
  compare_url?: string;
  commits?: PCommit[] | null;
  total_commits: number;
  pusher?: PUser | null;
}

/** CreatePayload and DeletePayload. */
export interface RefPayload extends Base {
  ref: string;
  ref_type: string;
}

export interface ForkPayload extends Base {
  forkee: PRepo;
}

export interface IssuePayload extends Base {
  number: number;
  issue: PIssue;
}

export interface CommentPayload extends Base {
  issue: PIssue;
  comment: { body: string; html_url: string; issue_url?: string; pull_request_url?: string };
  is_pull?: boolean;
}

export interface PullPayload extends Base {
  number: number;
  pull_request: PIssue;
  review?: { type?: string; content: string } | null;
}

export interface ReleasePayload extends Base {
  release: { tag_name: string; body?: string; html_url: string };
}

export type RepositoryPayload = Base;

export interface WikiPayload extends Base {
  page: string;
  comment?: string;
}

export interface PackagePayload extends Base {
  package: { name: string; version: string; html_url: string };
}

export interface StatusPayload extends Base {
  sha: string;
  context: string;
  description?: string;
  target_url?: string;
}

export interface WorkflowRef {
  id?: number;
  run_id?: number;
  name?: string;
  display_title?: string;
  html_url?: string;
  head_sha?: string;
  status?: string;
  conclusion?: string;
}

export interface WorkflowRunPayload extends Base {
  workflow_run: WorkflowRef;
}

export interface WorkflowJobPayload extends Base {
  workflow_job: WorkflowRef;
}

const NO_REPO: PRepo = { full_name: '', html_url: '' };

/** The payload's repository (`repository`, or `repo`), empty when it has none (package events). */
export function repoOf(p: { repository?: PRepo; repo?: PRepo }): PRepo {
  return p.repository ?? p.repo ?? NO_REPO;
}

/**
 * Gitea links a user as setting.AppURL + name; the API's html_url is exactly that, and without it
 * the instance URL is recovered from the repository's html_url.
 */
export function userUrl(user: PUser | null | undefined, p: { repository?: PRepo; repo?: PRepo }): string {
  if (!user) return '';
  if (user.html_url) return user.html_url;
  const repo = repoOf(p);
  const suffix = `/${repo.full_name}`;
  const appUrl = repo.html_url.endsWith(suffix) ? repo.html_url.slice(0, -suffix.length + 1) : '';
  return appUrl + pathEscape(user.login);
}
