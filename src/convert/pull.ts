import type { Config } from '../config/schema';
import type { PullRequest, User } from '../db/schema';
import type { PullFile } from '../git/merge';
import { isoTime } from '../lib/time';
import type { RepoAccess } from '../services/repo/repos';
import type { IssueView } from '../services/issue/issue-views';
import type { ReviewTeam } from '../services/pull/review-teams';
import { toApiIssue } from './issue';
import { repoUrls } from './repo';
import { toApiRepoWithParent } from './repo-view';
import { toApiTeam } from './team';
import { toApiUser } from './user';

/** A pull request with what its JSON needs: the issue, both repositories, who merged it. */
export type PullView = {
  issue: IssueView; pr: PullRequest; head: RepoAccess | null; base: RepoAccess; mergedBy: User | null;
  /** Users asked to review (pending requests). */
  requested: User[];
  /** Teams asked to review (pending requests). */
  requestedTeams?: ReviewTeam[];
  reviewComments: number;
};

function branchInfo(config: Config, repo: RepoAccess | null, branch: string, sha: string, viewer: User | null) {
  return {
    label: branch, ref: branch, sha, repo_id: repo?.repo.id ?? 0,
    repo: repo ? toApiRepoWithParent(config, { ...repo, transfer: null }, viewer) : null,
  };
}

const isMergeable = (status: string) => status === 'mergeable' || status === 'empty';

export function toApiPull(config: Config, v: PullView, viewer: User | null) {
  const i = toApiIssue(config, { ...v.issue, pull: {
    merged: v.pr.has_merged === 1, merged_at: v.pr.has_merged ? isoTime(v.pr.merged_unix) : null,
  } }, viewer);
  const { pr } = v;
  const html = i.html_url;
  const headSha = pr.head_commit_id;
  return {
    id: pr.id, url: html, number: i.number, user: i.user, title: i.title, body: i.body,
    labels: i.labels, milestone: i.milestone, assignee: i.assignee, assignees: i.assignees,
    requested_reviewers: v.requested.map((u) => toApiUser(config, u, viewer)),
    requested_reviewers_teams: (v.requestedTeams ?? []).map((t) => toApiTeam(config, t.team, t.units, t.org)),
    state: i.state, draft: i.pull_request!.draft,
    is_locked: i.is_locked, comments: i.comments, review_comments: v.reviewComments,
    additions: pr.additions, deletions: pr.deletions, changed_files: pr.changed_files,
    html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`,
    mergeable: !pr.has_merged && i.state === 'open' ? isMergeable(pr.status) : false,
    merged: pr.has_merged === 1, merged_at: i.pull_request!.merged_at,
    merge_commit_sha: pr.has_merged ? pr.merged_commit_id : null,
    merged_by: pr.has_merged && v.mergedBy ? toApiUser(config, v.mergedBy, viewer) : null,
    allow_maintainer_edit: pr.allow_maintainer_edit === 1,
    base: branchInfo(config, v.base, pr.base_branch, pr.base_commit_id, viewer),
    // Gitea labels both sides with the bare branch name, forks included.
    head: branchInfo(config, v.head, pr.head_branch, headSha, viewer),
    merge_base: pr.merge_base,
    due_date: i.due_date, created_at: i.created_at, updated_at: i.updated_at, closed_at: i.closed_at,
    pin_order: i.pin_order,
  };
}

export type ApiPull = ReturnType<typeof toApiPull>;

/** Gitea's ToChangedFile: links at the head commit; previous_filename set for renames and copies. */
export function toApiChangedFile(config: Config, access: RepoAccess, head: string, f: PullFile) {
  const { url, html_url } = repoUrls(config, access.owner.name, access.repo.name);
  return {
    filename: f.filename, previous_filename: f.previous, status: f.status,
    additions: f.additions, deletions: f.deletions, changes: f.additions + f.deletions,
    html_url: `${html_url}/src/commit/${head}/${encodeURI(f.filename)}`,
    contents_url: `${url}/contents/${encodeURI(f.filename)}?ref=${head}`,
    raw_url: `${html_url}/raw/commit/${head}/${encodeURI(f.filename)}`,
  };
}
