import { sql, type Insertable } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';
import type { Comment, CommentTable } from '../db/schema';
import { COMMENT_TYPE, COUNTED_COMMENT_TYPES } from '../lib/comment-type';

export type CommentQuery = {
  /** One issue's comments, or every comment of a repository's issues. */
  issueId?: number;
  repoId?: number;
  type?: number;
  /** Repository-wide: only comments on issues (false) or on pulls (true). */
  isPull?: boolean;
  updatedSince?: number;
  updatedBefore?: number;
};

function filtered(db: DB, q: CommentQuery) {
  let query = db.selectFrom('comment as c');
  if (q.issueId !== undefined) query = query.where('c.issue_id', '=', q.issueId);
  if (q.repoId !== undefined || q.isPull !== undefined) {
    const repoId = q.repoId;
    const isPull = q.isPull;
    query = query.where('c.issue_id', 'in', (eb) => {
      let sub = eb.selectFrom('issue').select('issue.id');
      if (repoId !== undefined) sub = sub.where('issue.repo_id', '=', repoId);
      if (isPull !== undefined) sub = sub.where('issue.is_pull', '=', isPull ? 1 : 0);
      return sub;
    });
  }
  if (q.type !== undefined) query = query.where('c.type', '=', q.type);
  if (q.updatedSince !== undefined) query = query.where('c.updated_unix', '>=', q.updatedSince);
  if (q.updatedBefore !== undefined) query = query.where('c.updated_unix', '<=', q.updatedBefore);
  return query;
}

/** Oldest first, as Gitea's FindComments. */
export async function listComments(db: DB, q: CommentQuery, page?: { offset: number; limit: number }): Promise<Comment[]> {
  let query = filtered(db, q).selectAll('c').orderBy('c.created_unix').orderBy('c.id');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}

export async function countComments(db: DB, q: CommentQuery): Promise<number> {
  const row = await filtered(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertComment(db: DB, row: Insertable<CommentTable>): Promise<Comment> {
  return db.insertInto('comment').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function commentsByIds(db: DB, ids: number[]): Promise<Comment[]> {
  if (!ids.length) return [];
  return db.selectFrom('comment').selectAll().where('id', 'in', ids).execute();
}

export async function getCommentById(db: DB, id: number): Promise<Comment | undefined> {
  return db.selectFrom('comment').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateCommentContent(db: DB, id: number, content: string, now: number): Promise<void> {
  await db.updateTable('comment')
    .set({ content, content_version: sql`content_version + 1`, updated_unix: now })
    .where('id', '=', id).execute();
}

/**
 * Feed rows of a deleted comment go with it (Gitea marks them deleted, out of every feed); a
 * deleted review's events do not take theirs (Gitea deletes those rows directly).
 */
export async function deleteCommentRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('action').where('comment_id', '=', id).execute();
  await db.deleteFrom('comment').where('id', '=', id).execute();
}

/** Recounts issue.num_comments from the rows (comments and reviews, as Gitea). */
export async function refreshNumComments(db: DB, issueId: number): Promise<void> {
  await db.updateTable('issue').set({
    num_comments: sql`(SELECT COUNT(*) FROM comment WHERE issue_id = ${issueId} AND type IN (${sql.join(COUNTED_COMMENT_TYPES)}))`,
  }).where('id', '=', issueId).execute();
}

/** Label events of a deleted label go with it (Gitea's DeleteLabel). */
export async function deleteLabelEvents(db: DB, labelId: number, type: number): Promise<void> {
  await db.deleteFrom('comment').where('label_id', '=', labelId).where('type', '=', type).execute();
}

/** Timeline rows of one review (its submission and dismissals), which go when the review goes. */
export async function deleteReviewEvents(db: DB, issueId: number, reviewId: number, types: number[]): Promise<void> {
  await db.deleteFrom('comment').where('issue_id', '=', issueId).where('type', 'in', types)
    .where(dialectOf(db).jsonNumber('meta', 'review_id'), '=', reviewId).execute();
}

/** The submission rows (timeline comments) of reviews of one issue, by review id: Gitea's review html_url anchors them. */
export async function reviewEventIds(db: DB, issueId: number, reviewIds: number[]): Promise<Map<number, number>> {
  if (!reviewIds.length) return new Map();
  const reviewId = dialectOf(db).jsonNumber('meta', 'review_id');
  const rows = await db.selectFrom('comment').select(['id', reviewId.as('review_id')])
    .where('issue_id', '=', issueId).where('type', '=', COMMENT_TYPE.review)
    .where(reviewId, 'in', reviewIds).orderBy('id').execute();
  const out = new Map<number, number>();
  for (const r of rows) if (!out.has(Number(r.review_id))) out.set(Number(r.review_id), r.id);
  return out;
}

/** The newest comment id of an issue (0 for none): a mark to find the rows a change adds. */
export async function lastCommentIdOf(db: DB, issueId: number): Promise<number> {
  const row = await db.selectFrom('comment').select((eb) => eb.fn.max('id').as('id')).where('issue_id', '=', issueId).executeTakeFirst();
  return row?.id ?? 0;
}

/** The comments and timeline events of an issue after `afterId`, in order. */
export function commentsAfter(db: DB, issueId: number, afterId: number): Promise<Comment[]> {
  return db.selectFrom('comment').selectAll().where('issue_id', '=', issueId).where('id', '>', afterId).orderBy('id').execute();
}

/** The `meta` of the reference events on issue `target` pointing back at issue `from`. */
export async function referenceMetas(db: DB, target: number, from: number): Promise<string[]> {
  const rows = await db.selectFrom('comment').select('meta').where('issue_id', '=', target).where('ref_issue_id', '=', from)
    .where('type', 'in', [COMMENT_TYPE.issueRef, COMMENT_TYPE.commentRef, COMMENT_TYPE.pullRef]).execute();
  return rows.map((r) => r.meta);
}

/** Whether issue `issueId` has a commit reference event for `sha` already (one per commit, as Gitea). */
export async function hasCommitRef(db: DB, issueId: number, sha: string): Promise<boolean> {
  const row = await db.selectFrom('comment').select('id').where('issue_id', '=', issueId)
    .where('type', '=', COMMENT_TYPE.commitRef).where('commit_sha', '=', sha).executeTakeFirst();
  return !!row;
}
