import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { COMMENT_TYPE } from '../lib/comment-type';

// Explicit issue subscriptions (issue_watch) and the implicit ones Gitea derives.

export async function getIssueWatch(db: DB, userId: number, issueId: number): Promise<{ is_watching: number } | undefined> {
  return db.selectFrom('issue_watch').select('is_watching').where('user_id', '=', userId).where('issue_id', '=', issueId).executeTakeFirst();
}

export async function upsertIssueWatch(db: DB, userId: number, issueId: number, watching: boolean, now: number): Promise<void> {
  await db.insertInto('issue_watch')
    .values({ user_id: userId, issue_id: issueId, is_watching: watching ? 1 : 0, created_unix: now, updated_unix: now })
    .onConflict((oc) => oc.columns(['user_id', 'issue_id']).doUpdateSet({ is_watching: watching ? 1 : 0, updated_unix: now }))
    .execute();
}

export async function isRepoWatcher(db: DB, userId: number, repoId: number): Promise<boolean> {
  return !!(await db.selectFrom('watch').select('uid').where('uid', '=', userId).where('repo_id', '=', repoId).executeTakeFirst());
}

/** Gitea's IsUserParticipantsOfIssue: the poster, or the author of a comment. */
export async function isParticipant(db: DB, userId: number, issueId: number): Promise<boolean> {
  const poster = await db.selectFrom('issue').select('id').where('id', '=', issueId).where('poster_id', '=', userId).executeTakeFirst();
  if (poster) return true;
  const comment = await db.selectFrom('comment').select('id').where('issue_id', '=', issueId)
    .where('poster_id', '=', userId).where('type', '=', COMMENT_TYPE.comment).executeTakeFirst();
  return !!comment;
}

function activeWatchers(db: DB, issueId: number) {
  return db.selectFrom('issue_watch as w').innerJoin('user as u', 'u.id', 'w.user_id')
    .where('w.issue_id', '=', issueId).where('w.is_watching', '=', 1)
    .where('u.is_active', '=', 1).where('u.prohibit_login', '=', 0);
}

/** Gitea's GetIssueWatchers: explicit subscribers whose accounts are usable. */
export async function issueWatchers(db: DB, issueId: number, page: { offset: number; limit: number }): Promise<User[]> {
  return activeWatchers(db, issueId).selectAll('u').orderBy('w.id').limit(page.limit).offset(page.offset).execute();
}

export async function countIssueWatchers(db: DB, issueId: number): Promise<number> {
  const row = await activeWatchers(db, issueId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
