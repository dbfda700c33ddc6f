import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { Review, ReviewComment, ReviewCommentTable, ReviewTable } from '../db/schema';

// Pull request reviews and their line comments.

export const REVIEW_TYPE = { pending: 0, approve: 1, comment: 2, reject: 3, request: 4 } as const;

export async function insertReview(db: DB, row: Insertable<ReviewTable>): Promise<Review> {
  return db.insertInto('review').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getReview(db: DB, issueId: number, id: number): Promise<Review | undefined> {
  return db.selectFrom('review').selectAll().where('issue_id', '=', issueId).where('id', '=', id).executeTakeFirst();
}

export async function updateReview(db: DB, id: number, patch: Updateable<ReviewTable>): Promise<void> {
  await db.updateTable('review').set(patch).where('id', '=', id).execute();
}

export async function deleteReview(db: DB, id: number): Promise<void> {
  await db.deleteFrom('review').where('id', '=', id).execute();
}

/** A pull's reviews, oldest first; pending ones only their author's. */
export async function listReviews(db: DB, issueId: number, viewerId: number, page: { offset: number; limit: number }): Promise<{ rows: Review[]; total: number }> {
  const base = db.selectFrom('review').where('issue_id', '=', issueId)
    .where((eb) => eb.or([eb('type', '!=', REVIEW_TYPE.pending), eb('reviewer_id', '=', viewerId)]));
  const rows = await base.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute();
  const n = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n.n) };
}

/** Submitted reviews that count for merging: every one of a pull, the caller filters. */
export async function submittedReviews(db: DB, issueId: number): Promise<Review[]> {
  return db.selectFrom('review').selectAll().where('issue_id', '=', issueId).where('type', 'in', [REVIEW_TYPE.approve, REVIEW_TYPE.reject])
    .orderBy('id').execute();
}

/** Reviews made on another head become stale when the head moves. */
export async function markStaleReviews(db: DB, issueId: number, head: string): Promise<void> {
  await db.updateTable('review').set({ stale: 1 }).where('issue_id', '=', issueId).where('commit_id', '!=', head)
    .where('type', 'in', [REVIEW_TYPE.approve, REVIEW_TYPE.reject, REVIEW_TYPE.comment]).execute();
}

export async function insertReviewComment(db: DB, row: Insertable<ReviewCommentTable>): Promise<ReviewComment> {
  return db.insertInto('review_comment').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function reviewComments(db: DB, reviewIds: number[]): Promise<ReviewComment[]> {
  if (!reviewIds.length) return [];
  return db.selectFrom('review_comment').selectAll().where('review_id', 'in', reviewIds).orderBy('id').execute();
}

/** Open review requests (type 4) of pulls: who is asked to review each issue. */
export async function reviewRequests(db: DB, issueIds: number[]): Promise<Review[]> {
  if (!issueIds.length) return [];
  return db.selectFrom('review').selectAll().where('issue_id', 'in', issueIds).where('type', '=', REVIEW_TYPE.request).orderBy('id').execute();
}

export async function deleteReviewRequest(db: DB, issueId: number, reviewerId: number): Promise<void> {
  await db.deleteFrom('review').where('issue_id', '=', issueId).where('reviewer_id', '=', reviewerId).where('type', '=', REVIEW_TYPE.request).execute();
}

/** Line comments per pull (PullRequest.review_comments). */
export async function countReviewComments(db: DB, issueIds: number[]): Promise<Map<number, number>> {
  if (!issueIds.length) return new Map();
  const rows = await db.selectFrom('review_comment').select(['issue_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('issue_id', 'in', issueIds).groupBy('issue_id').execute();
  return new Map(rows.map((r) => [r.issue_id, Number(r.n)]));
}

/**
 * A reviewer's new verdict (approval or change request) dismisses their earlier ones, so a
 * dismissed approval never surfaces again (Gitea's CreateReview).
 */
export async function dismissVerdictsOf(db: DB, issueId: number, reviewerId: number, now: number): Promise<void> {
  await db.updateTable('review').set({ dismissed: 1, updated_unix: now }).where('issue_id', '=', issueId)
    .where('reviewer_id', '=', reviewerId).where('type', 'in', [REVIEW_TYPE.approve, REVIEW_TYPE.reject]).where('dismissed', '=', 0).execute();
}

/** Gitea's DismissApprovalReviews: approvals made before the head moved stop counting. */
export async function dismissApprovals(db: DB, issueId: number, head: string, now: number): Promise<number> {
  const r = await db.updateTable('review').set({ dismissed: 1, updated_unix: now }).where('issue_id', '=', issueId)
    .where('type', '=', REVIEW_TYPE.approve).where('dismissed', '=', 0).where('commit_id', '!=', head).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
