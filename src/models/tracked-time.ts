import type { DB } from '../db/connect';
import type { TrackedTime } from '../db/schema';

// Stopwatches (one running per user and issue) and tracked times (soft-deleted, as Gitea).

export type Stopwatch = { id: number; issue_id: number; user_id: number; created_unix: number };

export async function getStopwatch(db: DB, userId: number, issueId: number): Promise<Stopwatch | undefined> {
  return db.selectFrom('stopwatch').selectAll().where('user_id', '=', userId).where('issue_id', '=', issueId).executeTakeFirst();
}

export async function stopwatchesOfUser(db: DB, userId: number, page?: { offset: number; limit: number }): Promise<Stopwatch[]> {
  let q = db.selectFrom('stopwatch').selectAll().where('user_id', '=', userId).orderBy('id');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q.execute();
}

export async function countStopwatchesOfUser(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('stopwatch').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertStopwatch(db: DB, userId: number, issueId: number, now: number): Promise<void> {
  await db.insertInto('stopwatch').values({ user_id: userId, issue_id: issueId, created_unix: now }).execute();
}

export async function deleteStopwatch(db: DB, id: number): Promise<void> {
  await db.deleteFrom('stopwatch').where('id', '=', id).execute();
}

export async function insertTrackedTime(db: DB, row: { issue_id: number; user_id: number; time: number; created_unix: number }): Promise<TrackedTime> {
  return db.insertInto('tracked_time').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getTrackedTime(db: DB, id: number): Promise<TrackedTime | undefined> {
  return db.selectFrom('tracked_time').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markTimesDeleted(db: DB, ids: number[]): Promise<void> {
  if (ids.length) await db.updateTable('tracked_time').set({ deleted: 1 }).where('id', 'in', ids).execute();
}

export type TimeQuery = { repoId?: number; issueId?: number; userId?: number; since?: number; before?: number };

function filtered(db: DB, q: TimeQuery) {
  let query = db.selectFrom('tracked_time as t').innerJoin('issue as i', 'i.id', 't.issue_id').where('t.deleted', '=', 0);
  if (q.repoId !== undefined) query = query.where('i.repo_id', '=', q.repoId);
  if (q.issueId !== undefined) query = query.where('t.issue_id', '=', q.issueId);
  if (q.userId !== undefined) query = query.where('t.user_id', '=', q.userId);
  if (q.since !== undefined) query = query.where('t.created_unix', '>=', q.since);
  if (q.before !== undefined) query = query.where('t.created_unix', '<=', q.before);
  return query;
}

export async function listTrackedTimes(db: DB, q: TimeQuery, page?: { offset: number; limit: number }): Promise<TrackedTime[]> {
  let query = filtered(db, q).selectAll('t').orderBy('t.created_unix').orderBy('t.id');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}

export async function countTrackedTimes(db: DB, q: TimeQuery): Promise<number> {
  const row = await filtered(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
