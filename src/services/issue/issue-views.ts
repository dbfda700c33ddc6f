import type { DB } from '../../db/connect';
import type { Attachment, Comment, Issue, Label, Milestone, Repository, User } from '../../db/schema';
import { issueAttachments, commentAttachments, issuesByIds } from '../../models/issue';
import { assigneeIdsOfIssues } from '../../models/issue-assignee';
import { labelsOfIssues } from '../../models/issue-label';
import { milestonesByIds } from '../../models/milestone';
import { pullsByIssueIds } from '../../models/pull';
import { isoTime } from '../../lib/time';
import { getRepoById } from '../../models/repo';
import { usersByIds } from '../../models/user-lookup';

// Everything the Issue and Comment JSON show besides the row, loaded in batches for a page.

export type RepoRef = { repo: Repository; owner: User };

export type IssueView = {
  issue: Issue;
  repo: Repository;
  /** The repository's owner: names the URLs and the organization labels. */
  owner: User;
  poster: User | undefined;
  labels: Label[];
  milestone: Milestone | undefined;
  assignees: User[];
  assets: Attachment[];
  /** Merge state, for pull requests. */
  pull?: { merged: boolean; merged_at: string | null };
};

export type CommentView = {
  comment: Comment;
  issue: Issue;
  repo: RepoRef;
  poster: User | undefined;
  assets: Attachment[];
};

const groupBy = <T, K>(items: T[], key: (t: T) => K): Map<K, T[]> => {
  const out = new Map<K, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
};

/** Repositories and owners of rows from any repositories, with the known one pre-filled. */
export async function repoRefs(db: DB, repoIds: number[], known?: RepoRef): Promise<Map<number, RepoRef>> {
  const out = new Map<number, RepoRef>();
  if (known) out.set(known.repo.id, known);
  const missing = [...new Set(repoIds)].filter((id) => !out.has(id));
  const repos = (await Promise.all(missing.map((id) => getRepoById(db, id)))).filter((r): r is Repository => !!r);
  const owners = new Map((await usersByIds(db, [...new Set(repos.map((r) => r.owner_id))])).map((u) => [u.id, u]));
  for (const repo of repos) {
    const owner = owners.get(repo.owner_id);
    if (owner) out.set(repo.id, { repo, owner });
  }
  return out;
}

/**
 * `knownUsers`: rows the caller read in this request (the doer, the assignees it just set), not
 * read again: a new issue's view then reads no user (PostgreSQL: one round trip fewer).
 */
export async function issueViews(db: DB, issues: Issue[], known?: RepoRef, knownUsers: User[] = []): Promise<IssueView[]> {
  const ids = issues.map((i) => i.id);
  const [labels, assigneeRows, milestones, assets, repos, pulls] = await Promise.all([
    labelsOfIssues(db, ids),
    assigneeIdsOfIssues(db, ids),
    milestonesByIds(db, [...new Set(issues.map((i) => i.milestone_id).filter((m): m is number => !!m))]),
    issueAttachments(db, ids),
    repoRefs(db, issues.map((i) => i.repo_id), known),
    pullsByIssueIds(db, issues.filter((i) => i.is_pull).map((i) => i.id)),
  ]);
  const pullOf = new Map(pulls.map((p) => [p.issue_id, { merged: p.has_merged === 1, merged_at: p.has_merged ? isoTime(p.merged_unix) : null }]));
  // Only stored accounts stand in for a read (an Actions job's user is no row).
  const users = new Map(knownUsers.filter((u) => u.id > 0).map((u) => [u.id, u]));
  const missing = [...new Set([...issues.map((i) => i.poster_id), ...assigneeRows.map((a) => a.assignee_id)])].filter((id) => !users.has(id));
  for (const u of await usersByIds(db, missing)) users.set(u.id, u);
  const labelsBy = groupBy(labels, (l) => l.issue_id);
  const assigneesBy = groupBy(assigneeRows, (a) => a.issue_id);
  const assetsBy = groupBy(assets, (a) => a.issue_id);
  const milestoneOf = new Map(milestones.map((m) => [m.id, m]));
  return issues.filter((i) => repos.has(i.repo_id)).map((issue) => ({
    issue,
    ...repos.get(issue.repo_id)!,
    poster: users.get(issue.poster_id),
    labels: (labelsBy.get(issue.id) ?? []).map((l) => l.label),
    milestone: issue.milestone_id ? milestoneOf.get(issue.milestone_id) : undefined,
    assignees: (assigneesBy.get(issue.id) ?? []).map((a) => users.get(a.assignee_id)).filter((u): u is User => !!u),
    assets: assetsBy.get(issue.id) ?? [],
    pull: pullOf.get(issue.id),
  }));
}

export async function issueView(db: DB, issue: Issue, known?: RepoRef, knownUsers?: User[]): Promise<IssueView> {
  const [view] = await issueViews(db, [issue], known, knownUsers);
  return view!;
}

/** Comments of one repository's issues, with their issues (for URLs), posters and files. */
export async function commentViews(db: DB, comments: Comment[], repo: RepoRef): Promise<CommentView[]> {
  const [issues, users, assets] = await Promise.all([
    issuesByIds(db, [...new Set(comments.map((c) => c.issue_id))]),
    usersByIds(db, [...new Set(comments.map((c) => c.poster_id))]),
    commentAttachments(db, comments.map((c) => c.id)),
  ]);
  const issueOf = new Map(issues.map((i) => [i.id, i]));
  const userOf = new Map(users.map((u) => [u.id, u]));
  const assetsBy = groupBy(assets, (a) => a.comment_id);
  return comments.filter((c) => issueOf.has(c.issue_id)).map((comment) => ({
    comment, issue: issueOf.get(comment.issue_id)!, repo, poster: userOf.get(comment.poster_id), assets: assetsBy.get(comment.id) ?? [],
  }));
}
