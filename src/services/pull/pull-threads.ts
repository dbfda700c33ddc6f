import type { DB } from '../../db/connect';
import type { ReviewComment, User } from '../../db/schema';
import { hunkSideLines } from '../../lib/diff-hunk';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { insertReviewComment, REVIEW_TYPE } from '../../models/review';
import {
  deleteLineComment, getLineComment, pendingReviewOf, setResolver, updateLineComment, visibleLineComments,
} from '../../models/review-thread';
import { canWrite } from '../issue/issue-access';
import type { RepoAccess } from '../repo/repos';
import {
  createPullReview, deletePullReview, hunksOf, isOfficial, startLineOf, submitPullReview, type LineComment,
} from './pull-reviews';
import { loadPull, type LoadedPull } from './pull-views';
import type { Hearth } from '../../hearth';

// Review threads as the files page makes them (Gitea's web review service, which its API has no
// counterpart for): a comment on a line or a range, either alone ("Add single comment", a
// COMMENT review of one line) or into the doer's pending review ("Start a review"); replies,
// edits and deletions; resolving a thread; and finishing the pending review with a verdict.

export type LineTarget = { path: string; side: 'old' | 'new'; line: number; start?: number };
export type LineMode = 'single' | 'review';
export type Verdict = 'COMMENT' | 'APPROVED' | 'REQUEST_CHANGES';

/** Ranges past this many lines are refused: a comment is about a few lines, not a file. */
const MAX_RANGE = 1000;
const MAX_BODY = 65_535;

function checkBody(body: string): string {
  if (!body.trim()) throw new InvalidError('Write a comment first.', 'content');
  if (body.length > MAX_BODY) throw new InvalidError(`A comment holds at most ${MAX_BODY} characters.`, 'content');
  return body;
}

function checkTarget(t: LineTarget): LineComment {
  if (!t.path || t.path.length > 4096 || t.path.includes('\0')) throw new InvalidError('No such file in this pull request.', 'path');
  if (!Number.isSafeInteger(t.line) || t.line < 1) throw new InvalidError('No such line in this pull request.', 'line');
  const start = t.start && t.start !== t.line ? t.start : undefined;
  if (start !== undefined && (!Number.isSafeInteger(start) || start < 1 || start > t.line || t.line - start >= MAX_RANGE)) {
    throw new InvalidError(`A range starts at or before its last line and spans at most ${MAX_RANGE} lines.`, 'start');
  }
  return t.side === 'new'
    ? { path: t.path, new_position: t.line, start_position: start }
    : { path: t.path, old_position: t.line, start_position: start };
}

/** A signed-in reader comments; a locked pull request takes comments from writers only (as issue comments). */
export const mayComment = (loaded: LoadedPull): boolean =>
  !!loaded.ctx.doer && (!loaded.issue.is_locked || canWrite(loaded.ctx, true) || !!loaded.ctx.doer.is_admin);

function assertMayComment(loaded: LoadedPull): void {
  if (!mayComment(loaded)) throw new ForbiddenError('This pull request is locked: only collaborators may comment.');
}

/** Gitea's CanMarkConversation: the pull's author, a writer of pull requests or an official reviewer. */
export async function mayResolve(db: DB, access: RepoAccess, loaded: LoadedPull): Promise<boolean> {
  const doer = loaded.ctx.doer;
  if (!doer || access.repo.is_archived) return false;
  return loaded.issue.poster_id === doer.id || canWrite(loaded.ctx, true) || isOfficial(db, access, loaded.pr.base_branch, doer);
}

/** "Add single comment" or "Start a review" / "Add review comment" on a line or a range. */
export async function commentOnLine(
  h: Hearth, access: RepoAccess, doer: User, index: number, target: LineTarget, body: string, mode: LineMode,
): Promise<ReviewComment> {
  const line = { ...checkTarget(target), body: checkBody(body) };
  const loaded = await loadPull(h, access, doer, index);
  assertMayComment(loaded);
  const [hunk] = await hunksOf(h, access, loaded, loaded.pr.head_commit_id, [line]);
  if (!hunk) throw new InvalidError('That line is not part of the changes: comment on a line the diff shows.', 'line');
  // A range lies within one hunk: its lines are the last ones of the cut hunk on its side.
  if (line.start_position && hunkSideLines(hunk, target.side === 'old').length < target.line - line.start_position + 1) {
    throw new InvalidError('A range of lines must lie within one part (hunk) of the diff.', 'start');
  }
  const pending = mode === 'review' ? await pendingReviewOf(h.db, loaded.issue.id, doer.id) : undefined;
  if (!pending) {
    const view = await createPullReview(h, access, doer, index, { event: mode === 'single' ? 'COMMENT' : 'PENDING', body: '', comments: [line] });
    return view.comments[0]!;
  }
  const now = nowUnix();
  return insertReviewComment(h.db, {
    review_id: pending.id, issue_id: loaded.issue.id, poster_id: doer.id, path: line.path, content: line.body,
    line: target.side === 'new' ? target.line : -target.line, start_line: startLineOf(line),
    commit_id: loaded.pr.head_commit_id, diff_hunk: hunk, created_unix: now, updated_unix: now,
  });
}

/** A line comment of this pull request the doer sees (another's pending one is not there). */
async function visibleComment(db: DB, loaded: LoadedPull, id: number): Promise<ReviewComment> {
  const comment = Number.isSafeInteger(id) ? await getLineComment(db, loaded.issue.id, id) : undefined;
  const seen = comment && (await visibleLineComments(db, loaded.issue.id, loaded.ctx.doer?.id ?? 0)).some((c) => c.id === comment.id);
  if (!comment || !seen) throw new NotFoundError(`review comment does not exist [id: ${id}]`);
  return comment;
}

/** The poster or a writer of pull requests changes a comment (as issue comments). */
async function ownComment(h: Hearth, access: RepoAccess, doer: User, index: number, id: number) {
  const loaded = await loadPull(h, access, doer, index, false);
  const comment = await visibleComment(h.db, loaded, id);
  if (comment.poster_id !== doer.id && !canWrite(loaded.ctx, true)) throw new ForbiddenError('Only its author or a writer may change this comment.');
  return { loaded, comment };
}

export async function editLineComment(h: Hearth, access: RepoAccess, doer: User, index: number, id: number, body: string): Promise<ReviewComment> {
  const { comment } = await ownComment(h, access, doer, index, id);
  await updateLineComment(h.db, comment.id, checkBody(body), nowUnix());
  return { ...comment, content: body };
}

export async function removeLineComment(h: Hearth, access: RepoAccess, doer: User, index: number, id: number): Promise<void> {
  const { comment } = await ownComment(h, access, doer, index, id);
  await deleteLineComment(h.db, comment.id);
}

/** The first comment of the thread holding `comment`: same review, path and line (Gitea's conversation). */
async function threadHead(db: DB, loaded: LoadedPull, comment: ReviewComment): Promise<ReviewComment> {
  const all = await visibleLineComments(db, loaded.issue.id, loaded.ctx.doer?.id ?? 0);
  return all.find((c) => c.review_id === comment.review_id && c.path === comment.path && c.line === comment.line) ?? comment;
}

/** A reply joins the thread's review, on the same lines, at once (never pending). */
export async function replyToThread(h: Hearth, access: RepoAccess, doer: User, index: number, id: number, body: string): Promise<ReviewComment> {
  checkBody(body);
  const loaded = await loadPull(h, access, doer, index);
  assertMayComment(loaded);
  const head = await threadHead(h.db, loaded, await visibleComment(h.db, loaded, id));
  const now = nowUnix();
  return insertReviewComment(h.db, {
    review_id: head.review_id, issue_id: loaded.issue.id, poster_id: doer.id, path: head.path, content: body,
    line: head.line, start_line: head.start_line, commit_id: loaded.pr.head_commit_id, diff_hunk: head.diff_hunk,
    created_unix: now, updated_unix: now,
  });
}

export async function resolveThread(h: Hearth, access: RepoAccess, doer: User, index: number, id: number, resolved: boolean): Promise<void> {
  const loaded = await loadPull(h, access, doer, index, false);
  const head = await threadHead(h.db, loaded, await visibleComment(h.db, loaded, id));
  if (!(await mayResolve(h.db, access, loaded))) throw new ForbiddenError('You may not resolve conversations of this pull request.');
  await setResolver(h.db, head.id, resolved ? doer.id : 0);
}

/** "Finish review": the pending review submitted with the verdict, or a review of its own without one. */
export async function finishReview(h: Hearth, access: RepoAccess, doer: User, index: number, verdict: Verdict, body: string): Promise<number> {
  if (!['COMMENT', 'APPROVED', 'REQUEST_CHANGES'].includes(verdict)) throw new InvalidError('Choose Comment, Approve or Request changes.', 'event');
  const loaded = await loadPull(h, access, doer, index, false);
  const pending = await pendingReviewOf(h.db, loaded.issue.id, doer.id);
  const view = pending
    ? await submitPullReview(h, access, doer, index, pending.id, { event: verdict, body })
    : await createPullReview(h, access, doer, index, { event: verdict, body });
  return view.eventCommentId ?? view.review.id;
}

/** "Discard review": the doer's pending review and its comments. */
export async function discardPendingReview(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<void> {
  const loaded = await loadPull(h, access, doer, index, false);
  const pending = await pendingReviewOf(h.db, loaded.issue.id, doer.id);
  if (pending && pending.type === REVIEW_TYPE.pending) await deletePullReview(h, access, doer, index, pending.id);
}
