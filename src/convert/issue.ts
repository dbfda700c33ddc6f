import type { Config } from '../config/schema';
import type { Attachment, Issue, Label, Repository, User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { IssueView } from '../services/issue/issue-views';
import { toApiLabel, type ApiLabel } from './label';
import { toApiMilestone } from './milestone';
import { toApiUser, type ApiUser } from './user';

/** Gitea's ghost: the author of rows whose user was deleted. */
export function ghostUser(): User {
  return {
    id: -1, lower_name: 'ghost', name: 'Ghost', full_name: '', email: '', keep_email_private: 0, passwd: '',
    passwd_hash_algo: '', must_change_password: 0, login_source: 0, login_name: '', type: 0, location: '',
    website: '', description: '', language: '', theme: '', diff_view_style: '', is_active: 1, is_admin: 0,
    is_restricted: 0, prohibit_login: 0, allow_git_hook: 0, allow_import_local: 0, allow_create_organization: 0,
    hide_activity: 0, visibility: 0, max_repo_creation: -1, num_followers: 0, num_following: 0, num_stars: 0,
    num_repos: 0, created_unix: 0, updated_unix: 0, last_login_unix: 0, repo_admin_change_team_access: 0, avatar: '',
    keyboard_shortcuts: 1, password_printed: 0,
  };
}

export type ApiAttachment = {
  id: number; name: string; size: number; download_count: number; created_at: string; uuid: string; browser_download_url: string;
};

export function toApiAttachment(config: Config, a: Attachment): ApiAttachment {
  return {
    id: a.id, name: a.name, size: a.size, download_count: a.download_count, created_at: isoTime(a.created_unix),
    uuid: a.uuid, browser_download_url: `${config.server.root_url}attachments/${a.uuid}`,
  };
}

const repoPath = (owner: User, repo: Repository) => `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;

export const issueApiUrl = (config: Config, owner: User, repo: Repository, issue: Pick<Issue, 'index'>) =>
  `${config.server.root_url}api/v1/repos/${repoPath(owner, repo)}/issues/${issue.index}`;

export const issueHtmlUrl = (config: Config, owner: User, repo: Repository, issue: Pick<Issue, 'index' | 'is_pull'>) =>
  `${config.server.root_url}${repoPath(owner, repo)}/${issue.is_pull ? 'pulls' : 'issues'}/${issue.index}`;

/** A label of a repository's issue: its own, or its organization's. */
export const toIssueLabel = (config: Config, label: Label, owner: User, repo: Repository): ApiLabel =>
  toApiLabel(config, label, label.org_id ? { org: owner.name } : { repo: { owner: owner.name, name: repo.name } });

/** Gitea's default WORK_IN_PROGRESS_PREFIXES. */
const WIP = ['wip:', '[wip]'];

export function toApiIssue(config: Config, view: IssueView, viewer: User | null) {
  const { issue, repo, owner, pull } = view;
  const user = (u: User | undefined): ApiUser => toApiUser(config, u ?? ghostUser(), viewer);
  const html = issueHtmlUrl(config, owner, repo, issue);
  return {
    id: issue.id,
    url: issueApiUrl(config, owner, repo, issue),
    html_url: html,
    number: issue.index,
    user: user(view.poster),
    original_author: issue.original_author,
    original_author_id: issue.original_author_id,
    title: issue.title,
    body: issue.content,
    ref: issue.ref,
    assets: view.assets.map((a) => toApiAttachment(config, a)),
    labels: view.labels.map((l) => toIssueLabel(config, l, owner, repo)),
    milestone: view.milestone ? toApiMilestone(view.milestone) : null,
    assignee: view.assignees.length ? user(view.assignees[0]) : null,
    assignees: view.assignees.length ? view.assignees.map(user) : null,
    state: issue.is_closed ? 'closed' : 'open',
    is_locked: issue.is_locked === 1,
    comments: issue.num_comments,
    created_at: isoTime(issue.created_unix),
    updated_at: isoTime(issue.updated_unix),
    closed_at: issue.closed_unix ? isoTime(issue.closed_unix) : null,
    due_date: issue.deadline_unix ? isoTime(issue.deadline_unix) : null,
    time_estimate: issue.time_estimate,
    pull_request: issue.is_pull
      ? {
        merged: pull?.merged ?? false,
        merged_at: pull?.merged_at ?? null,
        draft: WIP.some((p) => issue.title.toLowerCase().startsWith(p)),
        html_url: html,
      }
      : null,
    repository: { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: issue.pin_order,
  };
}

export type ApiIssue = ReturnType<typeof toApiIssue>;
