import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { precompiled } from '../db/precompiled';
import type { User } from '../db/schema';

// Stars and watches share one shape: (uid, repo_id, created_unix), keyed by both ids.
export type Mark = 'star' | 'watch';

export async function getMark(db: DB, table: Mark, uid: number, repoId: number): Promise<{ created_unix: number } | undefined> {
  return db.selectFrom(table).select('created_unix').where('uid', '=', uid).where('repo_id', '=', repoId).executeTakeFirst();
}

/**
 * Whether the user watches and stars the repository, and whether a transfer of it is pending,
 * in one statement (the repository header asks all three on every page), compiled once.
 */
const marksStatement = precompiled(2, (db: DB, uid: number, repoId: number) => db.selectNoFrom((eb) => [
  eb.exists(eb.selectFrom('watch').select('uid').where('uid', '=', uid).where('repo_id', '=', repoId)).as('watch'),
  eb.exists(eb.selectFrom('star').select('uid').where('uid', '=', uid).where('repo_id', '=', repoId)).as('star'),
  eb.exists(eb.selectFrom('repo_transfer').select('repo_id').where('repo_id', '=', repoId)).as('transfer'),
]));

export async function marksOf(db: DB, uid: number, repoId: number): Promise<{ watch: boolean; star: boolean; transfer: boolean }> {
  const [row] = await marksStatement(db, uid, repoId);
  if (!row) throw new Error('marksOf: no row');
  return { watch: !!row.watch, star: !!row.star, transfer: !!row.transfer };
}

/** Adds the row; false when it was already there. */
export async function insertMark(db: DB, table: Mark, uid: number, repoId: number, now: number): Promise<boolean> {
  const r = await db.insertInto(table).values({ uid, repo_id: repoId, created_unix: now })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes the row; false when there was none. */
export async function deleteMark(db: DB, table: Mark, uid: number, repoId: number): Promise<boolean> {
  const r = await db.deleteFrom(table).where('uid', '=', uid).where('repo_id', '=', repoId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Users who starred or watch a repository, in the order they did. */
export async function listMarkers(db: DB, table: Mark, repoId: number, offset: number, limit: number): Promise<User[]> {
  return db.selectFrom(`${table} as m` as 'star as m').innerJoin('user as u', 'u.id', 'm.uid')
    .selectAll('u').where('m.repo_id', '=', repoId)
    .orderBy('m.created_unix').orderBy('m.uid').limit(limit).offset(offset).execute();
}

export async function countMarkers(db: DB, table: Mark, repoId: number): Promise<number> {
  const r = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'))
    .where('repo_id', '=', repoId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function bumpUserStars(db: DB, uid: number, delta: number): Promise<void> {
  await db.updateTable('user').set({ num_stars: sql`num_stars + ${delta}` }).where('id', '=', uid).execute();
}

/** Recounts a repository's stars and watches from the rows (after bulk changes such as a transfer). */
export async function recountMarks(db: DB, repoId: number): Promise<void> {
  await db.updateTable('repository').set({
    num_stars: sql`(SELECT count(*) FROM star WHERE repo_id = ${repoId})`,
    num_watches: sql`(SELECT count(*) FROM watch WHERE repo_id = ${repoId})`,
  }).where('id', '=', repoId).execute();
}

/** Before a repository goes: its stargazers' own star counts drop (the rows cascade). */
export async function forgetStarsOf(db: DB, repoId: number): Promise<void> {
  await db.updateTable('user').set({ num_stars: sql`num_stars - 1` })
    .where('id', 'in', (eb) => eb.selectFrom('star').select('uid').where('repo_id', '=', repoId)).execute();
}
