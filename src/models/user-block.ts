import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { atomically, dialectOf, lockRow, lockRows } from '../db/dialect';
import type { User } from '../db/schema';

// Blocks (user_block rows) and the ties a block cuts between two accounts.

export async function hasBlocked(db: DB, blockerId: number, blockeeId: number): Promise<boolean> {
  const row = await db.selectFrom('user_block').select('id')
    .where('blocker_id', '=', blockerId).where('blockee_id', '=', blockeeId).executeTakeFirst();
  return !!row;
}

export async function insertBlock(db: DB, row: { blockerId: number; blockeeId: number; note: string; now: number }): Promise<void> {
  await db.insertInto('user_block')
    .values({ blocker_id: row.blockerId, blockee_id: row.blockeeId, note: row.note, created_unix: row.now }).execute();
}

export async function deleteBlock(db: DB, blockerId: number, blockeeId: number): Promise<void> {
  await db.deleteFrom('user_block').where('blocker_id', '=', blockerId).where('blockee_id', '=', blockeeId).execute();
}

/** Users the blocker blocked, oldest block first. */
export async function listBlockees(db: DB, blockerId: number, offset: number, limit: number): Promise<{ users: User[]; total: number }> {
  const count = await db.selectFrom('user_block').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('blocker_id', '=', blockerId).executeTakeFirstOrThrow();
  const users = await db.selectFrom('user_block as b').innerJoin('user as u', 'u.id', 'b.blockee_id')
    .selectAll('u').where('b.blocker_id', '=', blockerId).orderBy('b.id').limit(limit).offset(offset).execute();
  return { users, total: Number(count.n) };
}

/** `uid` stops following `target`; follower counts follow. */
export async function unfollow(db: DB, uid: number, target: number): Promise<void> {
  const r = await db.deleteFrom('follow').where('user_id', '=', uid).where('follow_id', '=', target).executeTakeFirst();
  if (!Number(r.numDeletedRows)) return;
  const { greatest } = dialectOf(db);
  await db.updateTable('user').set({ num_following: greatest(sql`num_following - 1`, sql`0`) }).where('id', '=', uid).execute();
  await db.updateTable('user').set({ num_followers: greatest(sql`num_followers - 1`, sql`0`) }).where('id', '=', target).execute();
}

/** Removes `uid`'s stars and/or watches on the given repositories and recounts them. */
export async function dropMarks(db: DB, uid: number, repoIds: number[], kinds: ('star' | 'watch')[] = ['star', 'watch']): Promise<void> {
  if (!repoIds.length) return;
  await atomically(db, (trx) => dropMarksLocked(trx, uid, repoIds, kinds));
}

/** The recounts below read fresh rows once the repositories, then the user, are held (PostgreSQL). */
async function dropMarksLocked(db: DB, uid: number, repoIds: number[], kinds: ('star' | 'watch')[]): Promise<void> {
  await lockRows(db, 'repository', repoIds);
  if (kinds.includes('star')) await lockRow(db, 'user', uid);
  let starred = 0;
  if (kinds.includes('star')) {
    const r = await db.deleteFrom('star').where('uid', '=', uid).where('repo_id', 'in', repoIds).executeTakeFirst();
    starred = Number(r.numDeletedRows);
  }
  if (kinds.includes('watch')) await db.deleteFrom('watch').where('uid', '=', uid).where('repo_id', 'in', repoIds).execute();
  await db.updateTable('repository').set({
    num_stars: sql`(SELECT count(*) FROM star WHERE star.repo_id = repository.id)`,
    num_watches: sql`(SELECT count(*) FROM watch WHERE watch.repo_id = repository.id)`,
  }).where('id', 'in', repoIds).execute();
  if (starred) {
    await db.updateTable('user').set({ num_stars: sql`(SELECT count(*) FROM star WHERE star.uid = ${uid})` }).where('id', '=', uid).execute();
  }
}

export async function repoIdsOfOwner(db: DB, ownerId: number): Promise<number[]> {
  const rows = await db.selectFrom('repository').select('id').where('owner_id', '=', ownerId).execute();
  return rows.map((r) => r.id);
}

/** `uid` stops collaborating on the owner's repositories. */
export async function dropCollaborations(db: DB, ownerId: number, uid: number): Promise<void> {
  await db.deleteFrom('collaboration').where('user_id', '=', uid)
    .where('repo_id', 'in', (eb) => eb.selectFrom('repository').select('id').where('owner_id', '=', ownerId)).execute();
}

/** Pending transfers of the owner's repositories to `recipient`, or started by the owner for it, are cancelled. */
export async function cancelTransfers(db: DB, ownerId: number, recipient: number): Promise<void> {
  await db.deleteFrom('repo_transfer').where('recipient_id', '=', recipient)
    .where((eb) => eb.or([
      eb('doer_id', '=', ownerId),
      eb('repo_id', 'in', eb.selectFrom('repository').select('id').where('owner_id', '=', ownerId)),
    ])).execute();
}

/** Issues in the owner's repositories that `uid` is assigned to. */
export async function assignedIssueIds(db: DB, ownerId: number, uid: number): Promise<number[]> {
  const rows = await db.selectFrom('issue_assignee as a').innerJoin('issue as i', 'i.id', 'a.issue_id')
    .innerJoin('repository as r', 'r.id', 'i.repo_id')
    .select('a.issue_id').where('a.assignee_id', '=', uid).where('r.owner_id', '=', ownerId).execute();
  return rows.map((r) => r.issue_id);
}
