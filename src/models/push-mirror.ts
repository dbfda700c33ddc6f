import type { Insertable } from 'kysely';
import type { DB } from '../db/connect';
import type { PushMirror, PushMirrorTable } from '../db/schema';

// Gitea's push_mirror table: where a repository's branches and tags are pushed to, by name
// (remote_name) within the repository. The address is kept without credentials; those are
// sealed (credentials_sealed). interval_seconds 0: no scheduled pushes.

export type NewPushMirror = Insertable<PushMirrorTable>;

export async function insertPushMirror(db: DB, row: NewPushMirror): Promise<PushMirror> {
  return db.insertInto('push_mirror').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getPushMirrorById(db: DB, id: number): Promise<PushMirror | undefined> {
  return db.selectFrom('push_mirror').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getPushMirrorByName(db: DB, repoId: number, name: string): Promise<PushMirror | undefined> {
  return db.selectFrom('push_mirror').selectAll().where('repo_id', '=', repoId).where('remote_name', '=', name).executeTakeFirst();
}

/** One page of a repository's push mirrors, oldest first, and how many there are. */
export async function listPushMirrors(
  db: DB, repoId: number, page: { offset: number; limit: number },
): Promise<{ mirrors: PushMirror[]; total: number }> {
  const [mirrors, count] = await Promise.all([
    db.selectFrom('push_mirror').selectAll().where('repo_id', '=', repoId).orderBy('id').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('push_mirror').select((eb) => eb.fn.countAll<number>().as('n')).where('repo_id', '=', repoId).executeTakeFirstOrThrow(),
  ]);
  return { mirrors, total: Number(count.n) };
}

/** The ids of a repository's push mirrors (`onCommit`: only those that follow every push). */
export async function pushMirrorIdsOfRepo(db: DB, repoId: number, onCommit = false): Promise<number[]> {
  let q = db.selectFrom('push_mirror').select('id').where('repo_id', '=', repoId);
  if (onCommit) q = q.where('sync_on_commit', '=', 1);
  return (await q.orderBy('id').execute()).map((r) => r.id);
}

/** Push mirrors whose interval has passed since their last push (0: never), longest waiting first. */
export async function duePushMirrorIds(db: DB, nowUnix: number, limit: number): Promise<number[]> {
  let q = db.selectFrom('push_mirror').select('id').where('interval_seconds', '>', 0)
    .where((eb) => eb(eb('last_update_unix', '+', eb.ref('interval_seconds')), '<=', nowUnix))
    .orderBy('last_update_unix').orderBy('id');
  if (limit > 0) q = q.limit(limit);
  return (await q.execute()).map((r) => r.id);
}

/** False when the repository has no push mirror of that name. */
export async function deletePushMirrorByName(db: DB, repoId: number, name: string): Promise<boolean> {
  const r = await db.deleteFrom('push_mirror').where('repo_id', '=', repoId).where('remote_name', '=', name).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The outcome of a push: when it ran and what failed ('' when it succeeded). */
export async function recordPushMirrorSync(db: DB, id: number, unix: number, error: string): Promise<void> {
  await db.updateTable('push_mirror').set({ last_update_unix: unix, last_error: error }).where('id', '=', id).execute();
}
