import type { DB } from '../../db/connect';
import type { Comment, Review, ReviewComment, User } from '../../db/schema';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { cutDiffAroundLine } from '../../lib/diff-hunk';
import { lockRow } from '../../db/dialect';
import { deleteReviewEvents, refreshNumComments, reviewEventIds } from '../../models/comment';
import { nowUnix } from '../../lib/time';
import { filePatch } from '../../git/merge';
import { listProtectedBranches } from '../../models/protected-branch';
import {
  deleteReview, deleteReviewRequest, dismissVerdictsOf, getReview, insertReview, insertReviewComment, listReviews, REVIEW_TYPE, reviewComments, updateReview,
} from '../../models/review';
import { isUserInTeams, usersByIds } from '../../models/user-lookup';
import { recordEvent } from '../issue/issue-events';
import { dirOfRepo } from './pull-git';
import { emit } from '../events/bus';
import { loadPull, type LoadedPull } from './pull-views';
import { ACCESS, accessMode } from '../permissions';
import { effectiveRule, toRule } from '../repo/protection-rules';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Pull request reviews (Gitea's review service): pending drafts, submitted verdicts, line
// comments, dismissals; `official` when the reviewer's approval counts for merging.

export const REVIEW_STATES = ['APPROVED', 'PENDING', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
const TYPE_OF: Record<ReviewState, number> = {
  APPROVED: REVIEW_TYPE.approve, PENDING: REVIEW_TYPE.pending, COMMENT: REVIEW_TYPE.comment,
  REQUEST_CHANGES: REVIEW_TYPE.reject, REQUEST_REVIEW: REVIEW_TYPE.request,
};

export type ReviewView = {
  review: Review; reviewer: User | undefined; comments: ReviewComment[]; loaded: LoadedPull;
  /** The review's submission row on the timeline, which its html_url anchors (as Gitea). */
  eventCommentId?: number;
  /** Posters of its comments (replies may be others') and resolvers of its threads, by id. */
  people?: Map<number, User>;
};
/** `start_position` (web only): the first line of a range on the same side, when more than one. */
export type LineComment = { path: string; body?: string; new_position?: number; old_position?: number; start_position?: number };
export type CreateReviewInput = { body?: string; event?: string; commit_id?: string; comments?: LineComment[] };

async function views(db: DB, loaded: LoadedPull, reviews: Review[]): Promise<ReviewView[]> {
  const comments = await reviewComments(db, reviews.map((r) => r.id));
  // Replies in a thread are other users' comments in this review; resolvers are users too.
  const ids = [...reviews.map((r) => r.reviewer_id), ...comments.flatMap((c) => [c.poster_id, c.resolve_doer_id])].filter((id) => id > 0);
  const users = new Map((await usersByIds(db, [...new Set(ids)])).map((u) => [u.id, u]));
  const events = await reviewEventIds(db, loaded.issue.id, reviews.map((r) => r.id));
  return reviews.map((review) => ({
    review, reviewer: users.get(review.reviewer_id), comments: comments.filter((c) => c.review_id === review.id), loaded,
    eventCommentId: events.get(review.id), people: users,
  }));
}

/** Gitea's IsOfficialReviewer: the approvals whitelist when the base's rule enables it, else write access. */
export async function isOfficial(db: DB, access: RepoAccess, baseBranch: string, user: User): Promise<boolean> {
  const rule = effectiveRule((await listProtectedBranches(db, access.repo.id)).map(toRule), baseBranch);
  if (rule?.s.enable_approvals_whitelist) {
    return rule.s.approvals_whitelist_user_ids.includes(user.id) || isUserInTeams(db, user.id, rule.s.approvals_whitelist_team_ids);
  }
  return (await accessMode(db, user, access.repo, access.owner)) >= ACCESS.write;
}

function eventType(event: string | undefined): number {
  const e = (event ?? '').toUpperCase() || 'PENDING';
  if (!(REVIEW_STATES as readonly string[]).includes(e) || e === 'REQUEST_REVIEW') throw new InvalidError(`[event]: unknown review event ${event}`, 'event');
  return TYPE_OF[e as ReviewState];
}

/** The checks Gitea makes before a verdict: not on your own pull, a body where needed. */
function checkVerdict(loaded: LoadedPull, doer: User, type: number, body: string, hasComments: boolean): void {
  if (type === REVIEW_TYPE.approve && loaded.issue.poster_id === doer.id) throw new InvalidError('approve your own pull is not allowed', 'event');
  if (type === REVIEW_TYPE.reject && loaded.issue.poster_id === doer.id) throw new InvalidError('reject your own pull is not allowed', 'event');
  if (type === REVIEW_TYPE.reject && !body.trim()) throw new InvalidError('review event REQUEST_CHANGES requires a body', 'body');
  if (type === REVIEW_TYPE.comment && !body.trim() && !hasComments) throw new InvalidError('review event COMMENT requires a body or a comment', 'body');
}

export async function listPullReviews(h: Hearth, access: RepoAccess, doer: User | null, index: number, page: { offset: number; limit: number }) {
  const loaded = await loadPull(h, access, doer, index, false);
  const { rows, total } = await listReviews(h.db, loaded.issue.id, doer?.id ?? 0, page);
  return { views: await views(h.db, loaded, rows), total };
}

async function loadReview(h: Hearth, access: RepoAccess, doer: User | null, index: number, id: number) {
  const loaded = await loadPull(h, access, doer, index, false);
  const review = Number.isSafeInteger(id) ? await getReview(h.db, loaded.issue.id, id) : undefined;
  if (!review || (review.type === REVIEW_TYPE.pending && review.reviewer_id !== doer?.id)) throw new NotFoundError(`review does not exist [id: ${id}]`);
  return { loaded, review };
}

export async function getPullReview(h: Hearth, access: RepoAccess, doer: User | null, index: number, id: number): Promise<ReviewView> {
  const { loaded, review } = await loadReview(h, access, doer, index, id);
  return (await views(h.db, loaded, [review]))[0]!;
}

/**
 * Gitea records a submitted review in the timeline (type `review`), counted among the comments;
 * the reviewer's own request is answered (Gitea lists a reviewer as requested only while their
 * latest review is the request).
 */
async function reviewSubmitted(db: DB, issueId: number, doerId: number, reviewId: number, body: string, now: number): Promise<Comment> {
  await deleteReviewRequest(db, issueId, doerId);
  const event = await recordEvent(db, { id: issueId }, doerId, COMMENT_TYPE.review, now, { content: body, meta: JSON.stringify({ review_id: reviewId }) });
  await refreshNumComments(db, issueId);
  return event;
}

/** An approval or a change request: a new one dismisses the reviewer's earlier verdicts (Gitea's CreateReview). */
const isVerdict = (type: number) => type === REVIEW_TYPE.approve || type === REVIEW_TYPE.reject;

/** A range's first line, signed as `line` (old side negative); 0 for one line. */
export function startLineOf(c: LineComment): number {
  const end = c.new_position || c.old_position || 0;
  if (!c.start_position || c.start_position >= end) return 0;
  return c.new_position ? c.start_position : -c.start_position;
}

const verdictOf = (type: number) => (type === REVIEW_TYPE.approve ? 'approve' : type === REVIEW_TYPE.reject ? 'reject' : 'comment');

/** The diff around each commented line (a range: all of it), from the merge base to the reviewed commit. */
export async function hunksOf(h: Hearth, access: RepoAccess, loaded: LoadedPull, commit: string, lines: LineComment[]): Promise<string[]> {
  const base = loaded.pr.merge_base || loaded.pr.base_commit_id;
  if (!lines.length || !base) return [];
  const dir = await dirOfRepo(h, access.repo);
  return Promise.all(lines.map(async (c) => {
    const old = !c.new_position;
    const line = old ? c.old_position ?? 0 : c.new_position ?? 0;
    const span = c.start_position && c.start_position < line ? line - c.start_position + 1 : 0;
    const patch = await filePatch(dir, base, commit, c.path).catch(() => '');
    return cutDiffAroundLine(patch, line, old, Math.max(4, span));
  }));
}

/** POST .../pulls/{index}/reviews */
export async function createPullReview(h: Hearth, access: RepoAccess, doer: User, index: number, input: CreateReviewInput): Promise<ReviewView> {
  const loaded = await loadPull(h, access, doer, index);
  const type = eventType(input.event);
  const body = input.body ?? '';
  const lines = input.comments ?? [];
  checkVerdict(loaded, doer, type, body, lines.length > 0);
  for (const c of lines) if (!c.path) throw new InvalidError('[comments]: path is required', 'comments');
  // Passed to git: a commit id only, never something that could read as an option.
  if (input.commit_id && !/^[0-9a-f]{4,64}$/i.test(input.commit_id)) throw new InvalidError('[commit_id]: not a commit id', 'commit_id');
  const commit = input.commit_id || loaded.pr.head_commit_id;
  const official = type === REVIEW_TYPE.approve || type === REVIEW_TYPE.reject ? await isOfficial(h.db, access, loaded.pr.base_branch, doer) : false;
  const hunks = await hunksOf(h, access, loaded, commit, lines);
  const now = nowUnix();
  const { review, event } = await h.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'issue', loaded.issue.id);
    if (isVerdict(type)) await dismissVerdictsOf(trx, loaded.issue.id, doer.id, now);
    const r = await insertReview(trx, {
      type, reviewer_id: doer.id, issue_id: loaded.issue.id, content: body, commit_id: commit,
      official: official ? 1 : 0, stale: commit === loaded.pr.head_commit_id ? 0 : 1, created_unix: now, updated_unix: now,
    });
    for (const [i, c] of lines.entries()) {
      await insertReviewComment(trx, {
        review_id: r.id, issue_id: loaded.issue.id, poster_id: doer.id, path: c.path, content: c.body ?? '',
        line: c.new_position ? c.new_position : -(c.old_position ?? 0), commit_id: commit, created_unix: now, updated_unix: now,
        diff_hunk: hunks[i] ?? '', start_line: startLineOf(c),
      });
    }
    const submitted = type !== REVIEW_TYPE.pending ? await reviewSubmitted(trx, loaded.issue.id, doer.id, r.id, body, now) : null;
    return { review: r, event: submitted };
  });
  if (event) await emit(h.db, 'pull.reviewed', { repo: access.repo, doer, issue: loaded.issue, review, verdict: verdictOf(type), event });
  return (await views(h.db, loaded, [review]))[0]!;
}

/** POST .../reviews/{id}: submits a pending review with its verdict. */
export async function submitPullReview(h: Hearth, access: RepoAccess, doer: User, index: number, id: number, input: { body?: string; event?: string }): Promise<ReviewView> {
  const { loaded, review } = await loadReview(h, access, doer, index, id);
  if (review.type !== REVIEW_TYPE.pending) throw new InvalidError('only a pending review can be submitted', 'id');
  const type = eventType(input.event);
  if (type === REVIEW_TYPE.pending) throw new InvalidError('review stays pending: give an event', 'event');
  const body = input.body ?? review.content;
  checkVerdict(loaded, doer, type, body, (await reviewComments(h.db, [review.id])).length > 0);
  const official = type === REVIEW_TYPE.approve || type === REVIEW_TYPE.reject ? await isOfficial(h.db, access, loaded.pr.base_branch, doer) : false;
  const now = nowUnix();
  const event = await h.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'issue', loaded.issue.id);
    await updateReview(trx, review.id, { type, content: body, official: official ? 1 : 0, created_unix: now, updated_unix: now });
    return reviewSubmitted(trx, loaded.issue.id, doer.id, review.id, body, now);
  });
  await emit(h.db, 'pull.reviewed', { repo: access.repo, doer, issue: loaded.issue, review: { ...review, type, content: body }, verdict: verdictOf(type), event });
  return getPullReview(h, access, doer, index, id);
}

/** DELETE .../reviews/{id}: its author or a repository admin. */
export async function deletePullReview(h: Hearth, access: RepoAccess, doer: User, index: number, id: number): Promise<void> {
  const { review } = await loadReview(h, access, doer, index, id);
  if (review.reviewer_id !== doer.id && access.mode < ACCESS.admin) throw new ForbiddenError('only the reviewer or an admin may delete a review');
  await h.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'issue', review.issue_id);
    await deleteReview(trx, review.id);
    await deleteReviewEvents(trx, review.issue_id, review.id, [COMMENT_TYPE.review, COMMENT_TYPE.dismissReview]);
    await refreshNumComments(trx, review.issue_id);
  });
}

/** POST .../reviews/{id}/dismissals and /undismissals: repository admins, verdicts only. */
export async function dismissPullReview(
  h: Hearth, access: RepoAccess, doer: User, index: number, id: number, dismissed: boolean, message = '',
): Promise<ReviewView> {
  if (access.mode < ACCESS.admin) throw new ForbiddenError('must be repo admin');
  const { loaded, review } = await loadReview(h, access, doer, index, id);
  if (review.type !== REVIEW_TYPE.approve && review.type !== REVIEW_TYPE.reject) throw new InvalidError('not allowed to dismiss review type', 'id');
  const now = nowUnix();
  await h.db.transaction().execute(async (trx) => {
    await updateReview(trx, review.id, { dismissed: dismissed ? 1 : 0, updated_unix: now });
    // Only a dismissal shows in the timeline, with its message (Gitea has no undismiss event).
    if (dismissed) await recordEvent(trx, { id: review.issue_id }, doer.id, COMMENT_TYPE.dismissReview, now, { content: message, meta: JSON.stringify({ review_id: review.id }) });
  });
  const reviewer = (await usersByIds(h.db, [review.reviewer_id]))[0]?.name ?? '';
  await emit(h.db, 'pull.review_dismissed', { repo: access.repo, doer, issue: loaded.issue, review, reviewer, message, dismissed });
  return getPullReview(h, access, doer, index, id);
}

export async function pullReviewComments(h: Hearth, access: RepoAccess, doer: User | null, index: number, id: number): Promise<ReviewView> {
  return getPullReview(h, access, doer, index, id);
}
