import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { Mirror, MirrorTable } from '../db/schema';

// Gitea's mirror table: one row per pull mirror, with its remote (no credentials in the
// address), the sealed credentials and the schedule (interval 0: no scheduled syncs).

export type NewMirror = Insertable<MirrorTable>;
export type MirrorPatch = Updateable<MirrorTable>;

export async function insertMirror(db: DB, row: NewMirror): Promise<void> {
  await db.insertInto('mirror').values(row).execute();
}

export async function getMirrorByRepoId(db: DB, repoId: number): Promise<Mirror | undefined> {
  return db.selectFrom('mirror').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
}

export async function updateMirror(db: DB, repoId: number, patch: MirrorPatch): Promise<void> {
  await db.updateTable('mirror').set(patch).where('repo_id', '=', repoId).execute();
}

/** Mirrors whose scheduled sync is due at `now` (interval 0 never is), the longest waiting first. */
export async function dueMirrors(db: DB, now: number, limit: number): Promise<Mirror[]> {
  let q = db.selectFrom('mirror').selectAll()
    .where('interval_seconds', '>', 0).where('next_update_unix', '<=', now)
    .orderBy('next_update_unix').orderBy('id');
  if (limit > 0) q = q.limit(limit);
  return q.execute();
}
