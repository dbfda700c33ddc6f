import type { DB } from '../db/connect';
import type { Reaction } from '../db/schema';

// Reactions on an issue (comment_id 0) or on one of its comments.

export type ReactionKey = { issueId: number; commentId: number };

export async function findReaction(db: DB, key: ReactionKey, userId: number, type: string): Promise<Reaction | undefined> {
  return db.selectFrom('reaction').selectAll()
    .where('issue_id', '=', key.issueId).where('comment_id', '=', key.commentId)
    .where('user_id', '=', userId).where('type', '=', type).where('original_author', '=', '').executeTakeFirst();
}

/** Inserts unless the same reaction exists already (then undefined): the unique index decides. */
export async function insertReaction(db: DB, key: ReactionKey, userId: number, type: string, now: number): Promise<Reaction | undefined> {
  return db.insertInto('reaction')
    .values({ issue_id: key.issueId, comment_id: key.commentId, user_id: userId, type, created_unix: now })
    .onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst();
}

/** The user's own reaction; migrated ones kept under their name (original_author) stay. */
export async function deleteReaction(db: DB, key: ReactionKey, userId: number, type: string): Promise<void> {
  await db.deleteFrom('reaction')
    .where('issue_id', '=', key.issueId).where('comment_id', '=', key.commentId)
    .where('user_id', '=', userId).where('type', '=', type).where('original_author', '=', '').execute();
}

export async function listReactions(db: DB, key: ReactionKey, page?: { offset: number; limit: number }): Promise<Reaction[]> {
  let q = db.selectFrom('reaction').selectAll()
    .where('issue_id', '=', key.issueId).where('comment_id', '=', key.commentId)
    .orderBy('created_unix').orderBy('id');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q.execute();
}

export async function countReactions(db: DB, key: ReactionKey): Promise<number> {
  const row = await db.selectFrom('reaction').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('issue_id', '=', key.issueId).where('comment_id', '=', key.commentId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A deleted comment's reactions (no foreign key holds them; the issue's do cascade). */
export async function deleteCommentReactions(db: DB, commentId: number): Promise<void> {
  await db.deleteFrom('reaction').where('comment_id', '=', commentId).execute();
}

/** Every reaction of an issue and of its comments, oldest first: one query for a whole page. */
export async function reactionsOfIssue(db: DB, issueId: number): Promise<Reaction[]> {
  return db.selectFrom('reaction').selectAll().where('issue_id', '=', issueId).orderBy('created_unix').orderBy('id').execute();
}
