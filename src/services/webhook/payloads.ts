import type { Config } from '../../config/schema';
import { toApiComment } from '../../convert/comment';
import { toApiCommitStatus } from '../../convert/commit-status';
import { toApiIssue } from '../../convert/issue';
import { toApiOrg } from '../../convert/org';
import { toApiPull } from '../../convert/pull';
import { toApiRelease } from '../../convert/release';
import { toApiRepo } from '../../convert/repo';
import { toApiUser } from '../../convert/user';
import type { DB } from '../../db/connect';
import type { Comment, CommitStatus, Issue, Release, Repository, User } from '../../db/schema';
import { getUserById } from '../../models/user';
import { commentViews, issueView } from '../issue/issue-views';
import { ACCESS, ORG_TYPE } from '../permissions';
import { pullView } from '../pull/pull-views';
import { releaseView } from '../release/releases';
import { withAccess, type RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Gitea's webhook payloads (modules/structs/hook.go), built from the rows an event carries with
// the API's converters: as Gitea, the repository is shown with owner access and users as to
// an anonymous viewer (private e-mails hidden).

export type Payload = Record<string, unknown>;

/** The repository and its owner, read once per event. */
export type PayloadContext = { h: Hearth; db: DB; config: Config; access: RepoAccess; repository: Payload; sender: Payload };

export async function payloadContext(h: Hearth, repo: Repository, doer: User): Promise<PayloadContext | null> {
  const [loaded] = await withAccess(h.db, [repo], null);
  const owner = loaded?.owner ?? (await getUserById(h.db, repo.owner_id));
  if (!owner) return null;
  const access: RepoAccess = { repo, owner, mode: ACCESS.owner };
  const parent = loaded?.parent ? toApiRepo(h.config, { ...loaded.parent, mode: ACCESS.owner }, null) : null;
  return { h, db: h.db, config: h.config, access, repository: toApiRepo(h.config, { ...access, parent }, null), sender: toApiUser(h.config, doer, null) };
}

export const apiUser = (c: PayloadContext, u: User): Payload => toApiUser(c.config, u, null) as unknown as Payload;

export async function apiIssue(c: PayloadContext, issue: Issue): Promise<Payload> {
  return toApiIssue(c.config, await issueView(c.db, issue, c.access), null) as Payload;
}

export async function apiPull(c: PayloadContext, issue: Issue): Promise<Payload> {
  return toApiPull(c.config, await pullView(c.h, c.access, issue, null), null) as Payload;
}

/** IssuePayload, or PullRequestPayload for a pull request. */
export async function issuePayload(c: PayloadContext, issue: Issue, action: string, extra: Payload = {}): Promise<Payload> {
  const base = { action, number: issue.index, ...extra, repository: c.repository, sender: c.sender, commit_id: '' };
  if (issue.is_pull) return { ...base, pull_request: await apiPull(c, issue), requested_reviewer: extra.requested_reviewer ?? null, review: extra.review ?? null };
  return { ...base, issue: await apiIssue(c, issue) };
}

/** IssueCommentPayload (`is_pull` and the pull request for comments on pull requests). */
export async function commentPayload(c: PayloadContext, issue: Issue, comment: Comment, action: string, extra: Payload = {}): Promise<Payload> {
  const [view] = await commentViews(c.db, [comment], c.access);
  return {
    action, issue: await apiIssue(c, issue), ...(issue.is_pull ? { pull_request: await apiPull(c, issue) } : {}),
    comment: view ? toApiComment(c.config, view, null) : null, ...extra,
    repository: c.repository, sender: c.sender, is_pull: issue.is_pull === 1,
  };
}

export async function releasePayload(c: PayloadContext, release: Release, action: string): Promise<Payload> {
  return { action, release: toApiRelease(c.config, c.access, await releaseView(c.db, release)), repository: c.repository, sender: c.sender };
}

/** RepositoryPayload: `organization` is the owner (Gitea fills it for users too). */
export function repositoryPayload(c: PayloadContext, action: string): Payload {
  const owner = c.access.owner;
  return { action, repository: c.repository, organization: owner.type === ORG_TYPE ? toApiOrg(c.config, owner) : apiUser(c, owner), sender: c.sender };
}

/** CommitStatusPayload. */
export async function statusPayload(c: PayloadContext, sha: string, status: CommitStatus): Promise<Payload> {
  const creator = status.creator_id ? await getUserById(c.db, status.creator_id) : undefined;
  const api = toApiCommitStatus(c.config, c.access, status, new Map(creator ? [[creator.id, creator]] : []));
  return {
    commit: { id: sha, url: `${c.repository.html_url as string}/commit/${sha}` }, context: status.context,
    created_at: api.created_at, description: status.description, id: status.id, repository: c.repository, sender: c.sender,
    sha, state: status.state, target_url: status.target_url, updated_at: api.updated_at,
  };
}
