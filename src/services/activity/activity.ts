import type { DB } from '../../db/connect';
import type { Action, Comment, Repository, Team, User } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { countBySlot, insertActions, listActions, watcherUsers, type FeedFilter } from '../../models/action';
import { commentsByIds } from '../../models/comment';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { usersByIds } from '../../models/user-lookup';
import { commentViews, type CommentView } from '../issue/issue-views';
import { ACCESS, accessMode, ORG_TYPE } from '../permissions';
import { withAccess, type RepoWithParent } from '../repo/repos';

// Activity feeds as Gitea records them: who did what on which repository, copied to each
// receiver (the actor, the owning organization, the watchers who may read the unit).

/** Gitea's ActionType numbering; the API names each by OP_NAMES[op - 1]. */
export const OP = {
  createRepo: 1, renameRepo: 2, starRepo: 3, watchRepo: 4, commitRepo: 5, createIssue: 6, createPullRequest: 7,
  transferRepo: 8, pushTag: 9, commentIssue: 10, mergePullRequest: 11, closeIssue: 12, reopenIssue: 13,
  closePullRequest: 14, reopenPullRequest: 15, deleteTag: 16, deleteBranch: 17,
} as const;

export const OP_NAMES = [
  'create_repo', 'rename_repo', 'star_repo', 'watch_repo', 'commit_repo', 'create_issue', 'create_pull_request',
  'transfer_repo', 'push_tag', 'comment_issue', 'merge_pull_request', 'close_issue', 'reopen_issue',
  'close_pull_request', 'reopen_pull_request', 'delete_tag', 'delete_branch', 'mirror_sync_push',
  'mirror_sync_create', 'mirror_sync_delete', 'approve_pull_request', 'reject_pull_request', 'comment_pull',
  'publish_release', 'pull_review_dismissed', 'pull_request_ready_for_review', 'auto_merge_pull_request',
] as const;

export const opName = (op: number): string => OP_NAMES[op - 1] ?? `action-${op}`;

const CODE_OPS = new Set<number>([OP.commitRepo, OP.pushTag, OP.deleteTag, OP.deleteBranch]);

export type NewActivity = { op: number; actor: User; repo: Repository; refName?: string; content?: string; commentId?: number };

/** Gitea's NotifyWatchers: one row per receiver; watchers only when they may read what it is about. */
export async function recordAction(db: DB, act: NewActivity): Promise<void> {
  // The actor's own repository needs no owner read (the request's row is the owner's); otherwise
  // the owner and the watchers are independent reads, side by side (PostgreSQL: one round trip).
  const [owner, watchers] = await Promise.all([
    act.actor.id === act.repo.owner_id ? act.actor : getUserById(db, act.repo.owner_id),
    watcherUsers(db, act.repo.id),
  ]);
  const receivers = new Set<number>([act.actor.id]);
  if (owner?.type === ORG_TYPE) receivers.add(owner.id);
  for (const w of watchers) {
    if (receivers.has(w.id)) continue;
    const mode = await accessMode(db, w, act.repo, owner, CODE_OPS.has(act.op) ? 'repo.code' : undefined);
    if (mode >= ACCESS.read) receivers.add(w.id);
  }
  const now = nowUnix();
  await insertActions(db, [...receivers].map((uid) => ({
    user_id: uid, op_type: act.op, act_user_id: act.actor.id, repo_id: act.repo.id, ref_name: act.refName ?? '', comment_id: act.commentId ?? 0,
    is_private: act.repo.is_private, content: act.content ?? '', created_unix: now,
  })));
}

/** After a repository is created (any way that goes through createRepository). */
export async function recordRepoCreated(db: DB, doer: User, repo: Repository): Promise<void> {
  await recordAction(db, { op: OP.createRepo, actor: doer, repo });
}

/** `comment`: the action's comment when it still exists (Gitea then sends comment_id and comment). */
export type FeedItem = { action: Action; actor: User; repo: RepoWithParent; comment?: CommentView };
export type Feed = { items: FeedItem[]; total: number };
export type FeedOptions = { date?: string; offset: number; limit: number };

/** `YYYY-MM-DD` in the server's zone to that day's bounds; anything else filters nothing, as Gitea. */
export function dayBounds(date: string | undefined): { from?: number; to?: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? '');
  if (!m) return {};
  const day = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (day.getMonth() !== Number(m[2]) - 1) return {};
  const from = Math.floor(day.getTime() / 1000);
  return { from, to: from + 86399 };
}

async function feed(db: DB, filter: FeedFilter, viewer: User | null, o: FeedOptions): Promise<Feed> {
  const { rows, total } = await listActions(db, { ...filter, ...dayBounds(o.date) }, o.offset, o.limit);
  const actors = new Map((await usersByIds(db, [...new Set(rows.map((r) => r.act_user_id))])).map((u) => [u.id, u]));
  const repoIds = [...new Set(rows.map((r) => r.repo_id))];
  const repoRows = (await Promise.all(repoIds.map((id) => getRepoById(db, id)))).filter((r): r is Repository => !!r);
  const repos = new Map((await withAccess(db, repoRows, viewer)).map((r) => [r.repo.id, r]));
  const comments = await commentsOf(db, rows, repos);
  const items = rows.flatMap((action) => {
    const actor = actors.get(action.act_user_id);
    const repo = repos.get(action.repo_id);
    return actor && repo ? [{ action, actor, repo, comment: comments.get(action.comment_id) }] : [];
  });
  return { items, total };
}

/** The comments the actions name, as views in their repository (an issue of another repo is not one). */
async function commentsOf(db: DB, rows: Action[], repos: Map<number, RepoWithParent>): Promise<Map<number, CommentView>> {
  const found = new Map((await commentsByIds(db, [...new Set(rows.map((r) => r.comment_id).filter((id) => id > 0))])).map((c) => [c.id, c]));
  const byRepo = new Map<number, Map<number, Comment>>();
  for (const row of rows) {
    const comment = found.get(row.comment_id);
    if (!comment || !repos.has(row.repo_id)) continue;
    if (!byRepo.has(row.repo_id)) byRepo.set(row.repo_id, new Map());
    byRepo.get(row.repo_id)!.set(comment.id, comment);
  }
  const out = new Map<number, CommentView>();
  for (const [repoId, comments] of byRepo) {
    for (const view of await commentViews(db, [...comments.values()], repos.get(repoId)!)) {
      if (view.issue.repo_id === repoId) out.set(view.comment.id, view);
    }
  }
  return out;
}

const selfOrAdmin = (user: User, viewer: User | null) => !!viewer && (viewer.is_admin === 1 || viewer.id === user.id);

/** GET /users/{username}/activities/feeds. */
export function userFeed(db: DB, user: User, viewer: User | null, onlyPerformedBy: boolean, o: FeedOptions): Promise<Feed> {
  const self = selfOrAdmin(user, viewer);
  return feed(db, {
    userId: user.id, actorId: onlyPerformedBy ? user.id : undefined, includePrivate: self,
    visibility: self ? null : { viewer, requested: user },
  }, viewer, o);
}

/** GET /orgs/{org}/activities/feeds: private rows for members and site admins. */
export function orgFeed(db: DB, org: User, viewer: User | null, isMember: boolean, o: FeedOptions): Promise<Feed> {
  return feed(db, {
    userId: org.id, includePrivate: !!viewer?.is_admin || isMember, visibility: { viewer, requested: org },
  }, viewer, o);
}

/** GET /teams/{id}/activities/feeds: the organization's rows on the team's repositories. */
export async function teamFeed(db: DB, team: Team, viewer: User | null, o: FeedOptions): Promise<Feed> {
  const org = await getUserById(db, team.org_id);
  return feed(db, {
    userId: team.org_id, includePrivate: true, visibility: { viewer, requested: org },
    team: { id: team.id, orgId: team.org_id, all: team.includes_all_repositories === 1 },
  }, viewer, o);
}

/** GET /repos/{owner}/{repo}/activities/feeds (the caller may read the repository). */
export function repoFeed(db: DB, repo: Repository, viewer: User | null, o: FeedOptions): Promise<Feed> {
  return feed(db, { repoId: repo.id, includePrivate: true, visibility: { viewer } }, viewer, o);
}

/**
 * GET /users/{username}/heatmap: the last year's actions in 15-minute slots; a user's own
 * actions only, an organization's every action on its feed; nothing when the user hides its
 * activity from this viewer.
 */
export async function heatmap(db: DB, user: User, viewer: User | null): Promise<{ timestamp: number; contributions: number }[]> {
  if (user.hide_activity && !selfOrAdmin(user, viewer)) return [];
  return countBySlot(db, {
    userId: user.id, actorId: user.type === ORG_TYPE ? undefined : user.id, includePrivate: true,
    visibility: { viewer, requested: user }, from: nowUnix() - 31536000 + 1,
  });
}
