import type { DB } from '../db/connect';
import type { Collaboration, User } from '../db/schema';

export async function getCollaboration(db: DB, repoId: number, userId: number): Promise<Collaboration | undefined> {
  return db.selectFrom('collaboration').selectAll()
    .where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
}

/** Collaborators of a repository with their users, oldest first. */
export async function listCollaborators(db: DB, repoId: number, offset: number, limit: number): Promise<User[]> {
  return db.selectFrom('collaboration as c').innerJoin('user as u', 'u.id', 'c.user_id')
    .selectAll('u').where('c.repo_id', '=', repoId)
    .orderBy('c.id').limit(limit).offset(offset).execute();
}

export async function countCollaborators(db: DB, repoId: number): Promise<number> {
  const r = await db.selectFrom('collaboration').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('repo_id', '=', repoId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Inserts the collaboration or changes its mode. */
export async function upsertCollaboration(db: DB, repoId: number, userId: number, mode: number, now: number): Promise<void> {
  await db.insertInto('collaboration')
    .values({ repo_id: repoId, user_id: userId, mode, created_unix: now, updated_unix: now })
    .onConflict((oc) => oc.columns(['repo_id', 'user_id']).doUpdateSet({ mode, updated_unix: now }))
    .execute();
}

/** Removes one collaboration; false when there was none. */
export async function deleteCollaboration(db: DB, repoId: number, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('collaboration').where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Removes the collaborations of these users (a transfer makes them owners or members). */
export async function deleteCollaborationsOf(db: DB, repoId: number, userIds: number[]): Promise<void> {
  if (!userIds.length) return;
  await db.deleteFrom('collaboration').where('repo_id', '=', repoId).where('user_id', 'in', userIds).execute();
}

export async function listCollaboratorIds(db: DB, repoId: number): Promise<number[]> {
  const rows = await db.selectFrom('collaboration').select('user_id').where('repo_id', '=', repoId).execute();
  return rows.map((r) => r.user_id);
}
