import type { DB } from '../../db/connect';
import type { Comment, Issue, Label, Milestone, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { parseRfc3339 } from '../../lib/dates';
import { InvalidError } from '../../lib/errors';
import { getCommentById, listComments } from '../../models/comment';
import { issuesByIds } from '../../models/issue';
import { milestonesByIds } from '../../models/milestone';
import { getRepoById } from '../../models/repo';
import { labelsByIds, trackedTimesByIds } from '../../models/timeline';
import { usersByIds } from '../../models/user-lookup';
import { canRead, issueCtx, readableIssue, type IssueCtx } from './issue-access';
import { commentViews, issueViews, type CommentView, type IssueView } from './issue-views';
import { accessOf, type RepoAccess } from '../repo/repos';
import { reviewTeamsByIds, type ReviewTeam } from '../pull/review-teams';
import { timeViews, type TimeView } from './time-tracker';

// The timeline (Gitea's ListIssueCommentsAndTimeline): every comment row of an issue,
// events included, with what each event refers to loaded in batches.

export type TimelineView = {
  comment: Comment;
  issue: Issue;
  repo: RepoAccess;
  poster: User | undefined;
  label: Label | undefined;
  milestone: Milestone | undefined;
  oldMilestone: Milestone | undefined;
  assignee: User | undefined;
  /** A team asked for a review (review_request events keep it in meta.team_id). */
  assigneeTeam: ReviewTeam | undefined;
  dependentIssue: IssueView | undefined;
  refIssue: IssueView | undefined;
  refComment: CommentView | undefined;
  trackedTime: TimeView | undefined;
  meta: Record<string, unknown>;
};

export type TimelineRange = { since?: string; before?: string };

function timeParam(field: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const unix = parseRfc3339(value);
  if (unix === null) throw new InvalidError(`[${field}]: invalid time, expected RFC 3339`, field);
  return unix;
}

/** The meta of the comments that carry none (most: every plain comment), shared, read only. */
const NO_META: Record<string, unknown> = Object.freeze({});

function metaOf(c: Comment): Record<string, unknown> {
  if (!c.meta || c.meta === '{}') return NO_META;
  try {
    const v: unknown = JSON.parse(c.meta || '{}');
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const REF_TYPES: number[] = [COMMENT_TYPE.issueRef, COMMENT_TYPE.commentRef, COMMENT_TYPE.pullRef];

/** Gitea's isXRefCommentAccessible: references from other repositories only when readable. */
async function readableIssuesOf(db: DB, here: IssueCtx, doer: User | null, issues: Issue[]): Promise<Map<number, Issue>> {
  const ctxs = new Map<number, IssueCtx | null>([[here.repo.id, here]]);
  const out = new Map<number, Issue>();
  for (const issue of issues) {
    if (!ctxs.has(issue.repo_id)) {
      const repo = await getRepoById(db, issue.repo_id);
      ctxs.set(issue.repo_id, repo ? await issueCtx(db, await accessOf(db, repo, doer), doer) : null);
    }
    const ctx = ctxs.get(issue.repo_id);
    if (ctx && canRead(ctx, issue.is_pull)) out.set(issue.id, issue);
  }
  return out;
}

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const ids = (values: number[]) => [...new Set(values.filter((v) => v > 0))];

/** The comments cross references point from, on issues the caller can read. */
async function refCommentViews(
  db: DB, comments: Comment[], metas: Map<number, Record<string, unknown>>, issueViewOf: Map<number, IssueView>,
): Promise<Map<number, CommentView>> {
  const out = new Map<number, CommentView>();
  for (const c of comments) {
    const refId = Number(metas.get(c.id)!.ref_comment_id ?? 0);
    const from = issueViewOf.get(c.ref_issue_id);
    const ref = refId && from ? await getCommentById(db, refId) : undefined;
    if (!ref || !from || ref.issue_id !== from.issue.id) continue;
    const [view] = await commentViews(db, [ref], { repo: from.repo, owner: from.owner });
    if (view) out.set(c.id, view);
  }
  return out;
}

async function views(db: DB, ctx: IssueCtx, doer: User | null, issue: Issue, comments: Comment[]): Promise<TimelineView[]> {
  const metas = new Map(comments.map((c) => [c.id, metaOf(c)]));
  const timeIds = ids(comments.map((c) => Number(metas.get(c.id)!.time_id ?? 0)));
  const [users, labels, milestones, linked, times] = await Promise.all([
    usersByIds(db, ids(comments.flatMap((c) => [c.poster_id, c.assignee_id]))),
    labelsByIds(db, ids(comments.map((c) => c.label_id))),
    milestonesByIds(db, ids(comments.flatMap((c) => [c.milestone_id, c.old_milestone_id]))),
    issuesByIds(db, ids(comments.flatMap((c) => [c.dependent_issue_id, c.ref_issue_id]))),
    trackedTimesByIds(db, timeIds).then((t) => timeViews(db, t)),
  ]);
  const readable = await readableIssuesOf(db, ctx, doer, linked);
  const issueViewOf = new Map((await issueViews(db, [...readable.values()])).map((v) => [v.issue.id, v]));
  const [userOf, labelOf, milestoneOf] = [byId(users), byId(labels), byId(milestones)];
  const timeOf = new Map(times.map((t) => [t.time.id, t]));
  const refComments = await refCommentViews(db, comments, metas, issueViewOf);
  const teamOf = await reviewTeamsByIds(db, comments.map((c) => Number(metas.get(c.id)!.team_id ?? 0)));
  return comments
    .filter((c) => c.type !== COMMENT_TYPE.code && !(REF_TYPES.includes(c.type) && c.ref_issue_id && !readable.has(c.ref_issue_id)))
    .map((c) => ({
      comment: c, issue, repo: ctx, poster: userOf.get(c.poster_id), label: labelOf.get(c.label_id),
      milestone: milestoneOf.get(c.milestone_id), oldMilestone: milestoneOf.get(c.old_milestone_id),
      assignee: userOf.get(c.assignee_id), assigneeTeam: teamOf.get(Number(metas.get(c.id)!.team_id ?? 0)), dependentIssue: issueViewOf.get(c.dependent_issue_id),
      refIssue: issueViewOf.get(c.ref_issue_id), refComment: refComments.get(c.id),
      trackedTime: timeOf.get(Number(metas.get(c.id)!.time_id ?? 0)),
      meta: metas.get(c.id)!,
    }));
}

/** GET .../issues/{index}/timeline: oldest first; paged only when a page is asked for. */
export async function issueTimeline(
  db: DB, access: RepoAccess, doer: User | null, index: number, r: TimelineRange, page?: { offset: number; limit: number },
): Promise<TimelineView[]> {
  const range = { updatedSince: timeParam('since', r.since), updatedBefore: timeParam('before', r.before) };
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  const comments = await listComments(db, { issueId: issue.id, ...range }, page);
  return views(db, ctx, doer, issue, comments);
}

/** The whole timeline of an issue its caller already read through `ctx` (the issue page's). */
export async function timelineOfIssue(db: DB, ctx: IssueCtx, issue: Issue): Promise<TimelineView[]> {
  return views(db, ctx, ctx.doer, issue, await listComments(db, { issueId: issue.id }));
}
