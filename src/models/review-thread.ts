import type { DB } from '../db/connect';
import type { Review, ReviewComment } from '../db/schema';
import { REVIEW_TYPE } from './review';

// Line comments as the files page reads them: every comment of a pull request whose review the
// viewer may see (submitted ones, and the viewer's own pending one), and the edits of threads.

export type VisibleLineComment = ReviewComment & { review_type: number; reviewer_id: number };

/** The pull request's line comments the viewer sees, oldest first. */
export async function visibleLineComments(db: DB, issueId: number, viewerId: number): Promise<VisibleLineComment[]> {
  return db.selectFrom('review_comment as c').innerJoin('review as r', 'r.id', 'c.review_id')
    .selectAll('c').select(['r.type as review_type', 'r.reviewer_id as reviewer_id'])
    .where('c.issue_id', '=', issueId)
    .where((eb) => eb.or([eb('r.type', '!=', REVIEW_TYPE.pending), eb('r.reviewer_id', '=', viewerId)]))
    .orderBy('c.id').execute();
}

export async function getLineComment(db: DB, issueId: number, id: number): Promise<ReviewComment | undefined> {
  return db.selectFrom('review_comment').selectAll().where('issue_id', '=', issueId).where('id', '=', id).executeTakeFirst();
}

/** The viewer's pending review of a pull request, if they started one. */
export async function pendingReviewOf(db: DB, issueId: number, reviewerId: number): Promise<Review | undefined> {
  return db.selectFrom('review').selectAll().where('issue_id', '=', issueId).where('reviewer_id', '=', reviewerId)
    .where('type', '=', REVIEW_TYPE.pending).orderBy('id', 'desc').executeTakeFirst();
}

export async function updateLineComment(db: DB, id: number, content: string, now: number): Promise<void> {
  await db.updateTable('review_comment').set({ content, updated_unix: now }).where('id', '=', id).execute();
}

export async function deleteLineComment(db: DB, id: number): Promise<void> {
  await db.deleteFrom('review_comment').where('id', '=', id).execute();
}

/** Marks a thread (its first comment) resolved by `doerId`, or open again with 0. */
export async function setResolver(db: DB, id: number, doerId: number): Promise<void> {
  await db.updateTable('review_comment').set({ resolve_doer_id: doerId }).where('id', '=', id).execute();
}

/** The submitted review of `reviewerId` with the highest id: "changes since your last review". */
export async function lastSubmittedReview(db: DB, issueId: number, reviewerId: number): Promise<Review | undefined> {
  return db.selectFrom('review').selectAll().where('issue_id', '=', issueId).where('reviewer_id', '=', reviewerId)
    .where('type', 'in', [REVIEW_TYPE.approve, REVIEW_TYPE.comment, REVIEW_TYPE.reject]).orderBy('id', 'desc').executeTakeFirst();
}
