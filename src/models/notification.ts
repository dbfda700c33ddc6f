import type { DB } from '../db/connect';
import type { Comment, Notification } from '../db/schema';
import { COUNTED_COMMENT_TYPES, COMMENT_TYPE } from '../lib/comment-type';

// Notification threads (Gitea's notification table) and the people an issue event reaches.

/** Gitea's NotificationStatus and NotificationSource numbers. */
export const NOTIFY_STATUS = { unread: 1, read: 2, pinned: 3 } as const;
export const NOTIFY_SOURCE = { issue: 1, pull: 2, commit: 3, repository: 4 } as const;

export type NotificationFilter = {
  userId: number; repoId?: number; statuses?: number[]; sources?: number[];
  updatedSince?: number; updatedBefore?: number;
};

function filtered(db: DB, f: NotificationFilter) {
  let q = db.selectFrom('notification').where('user_id', '=', f.userId);
  if (f.repoId !== undefined) q = q.where('repo_id', '=', f.repoId);
  if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
  if (f.sources?.length) q = q.where('source', 'in', f.sources);
  if (f.updatedSince) q = q.where('updated_unix', '>=', f.updatedSince);
  if (f.updatedBefore) q = q.where('updated_unix', '<=', f.updatedBefore);
  return q;
}

/** Newest first; without a page, every match (for marking). */
export async function listNotifications(db: DB, f: NotificationFilter, page?: { offset: number; limit: number }): Promise<Notification[]> {
  let q = filtered(db, f).selectAll().orderBy('updated_unix', 'desc').orderBy('id', 'desc');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q.execute();
}

export async function countNotifications(db: DB, f: NotificationFilter): Promise<number> {
  const r = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function getNotificationById(db: DB, id: number): Promise<Notification | undefined> {
  return db.selectFrom('notification').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getIssueNotification(db: DB, userId: number, issueId: number): Promise<Notification | undefined> {
  return db.selectFrom('notification').selectAll().where('user_id', '=', userId).where('issue_id', '=', issueId).executeTakeFirst();
}

export async function setNotificationStatus(db: DB, id: number, status: number, now: number): Promise<void> {
  await db.updateTable('notification').set({ status, updated_unix: now }).where('id', '=', id).execute();
}

export type ThreadRow = {
  user_id: number; repo_id: number; issue_id: number; source: number; comment_id: number; updated_by: number;
};

export async function insertIssueNotification(db: DB, row: ThreadRow, now: number): Promise<void> {
  await db.insertInto('notification')
    .values({ ...row, status: NOTIFY_STATUS.unread, created_unix: now, updated_unix: now }).execute();
}

/**
 * Gitea's updateIssueNotification: a read thread becomes unread and points at the new comment;
 * an unread or pinned one keeps its comment (so none is skipped) and only moves up.
 */
export async function touchIssueNotification(db: DB, n: Notification, commentId: number, updatedBy: number, now: number): Promise<void> {
  const patch = n.status === NOTIFY_STATUS.read
    ? { status: NOTIFY_STATUS.unread, comment_id: commentId, updated_by: updatedBy, updated_unix: now }
    : { updated_by: updatedBy, updated_unix: now };
  await db.updateTable('notification').set(patch).where('id', '=', n.id).execute();
}

/** Poster and commenters (Gitea's GetParticipantIDsByIssue). */
export async function participantIds(db: DB, issueId: number, posterId: number): Promise<number[]> {
  const rows = await db.selectFrom('comment').select('poster_id').distinct()
    .where('issue_id', '=', issueId).where('type', 'in', COUNTED_COMMENT_TYPES).execute();
  return [posterId, ...rows.map((r) => r.poster_id)];
}

export async function assigneeIds(db: DB, issueId: number): Promise<number[]> {
  const rows = await db.selectFrom('issue_assignee').select('assignee_id').where('issue_id', '=', issueId).execute();
  return rows.map((r) => r.assignee_id);
}

/** Explicit issue subscriptions: watching (true) or opted out (false). */
export async function issueWatcherIds(db: DB, issueId: number, watching: boolean): Promise<number[]> {
  const rows = await db.selectFrom('issue_watch').select('user_id')
    .where('issue_id', '=', issueId).where('is_watching', '=', watching ? 1 : 0).execute();
  return rows.map((r) => r.user_id);
}

export async function repoWatcherIds(db: DB, repoId: number): Promise<number[]> {
  const rows = await db.selectFrom('watch').select('uid').where('repo_id', '=', repoId).execute();
  return rows.map((r) => r.uid);
}

/** The latest plain comment of each issue (Gitea's GetLastComment), for subject URLs. */
export async function lastCommentsOf(db: DB, issueIds: number[]): Promise<Map<number, Comment>> {
  const out = new Map<number, Comment>();
  if (!issueIds.length) return out;
  const rows = await db.selectFrom('comment').selectAll().where('id', 'in', (eb) => eb.selectFrom('comment')
    .select((e) => e.fn.max('id').as('id')).where('issue_id', 'in', issueIds)
    .where('type', '=', COMMENT_TYPE.comment).groupBy('issue_id')).execute();
  for (const c of rows) out.set(c.issue_id, c);
  return out;
}

