import type { DB } from '../db/connect';
import type { ActionSecret } from '../db/schema';

// Actions secrets (Gitea's models/secret): sealed values, one name per scope. Scope: repoId>0 a
// repository; ownerId>0 (repoId 0) a user or organization; both 0 the instance.

export type ActionsScope = { ownerId: number; repoId: number };
export type PageWindow = { offset: number; limit: number };

const scoped = (db: DB, s: ActionsScope) =>
  db.selectFrom('action_secret').where('owner_id', '=', s.ownerId).where('repo_id', '=', s.repoId);

export async function getSecret(db: DB, s: ActionsScope, name: string): Promise<ActionSecret | undefined> {
  return scoped(db, s).selectAll().where('name', '=', name).executeTakeFirst();
}

/** One page of a scope's secrets by name, and how many there are. */
export async function listSecrets(db: DB, s: ActionsScope, page: PageWindow): Promise<{ rows: ActionSecret[]; total: number }> {
  const n = await scoped(db, s).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await scoped(db, s).selectAll().orderBy('name').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(n.n) };
}

/** Every secret a task of `repoId` (owned by `ownerId`) sees; the caller resolves precedence. */
export async function secretsForRepo(db: DB, ownerId: number, repoId: number): Promise<ActionSecret[]> {
  return db.selectFrom('action_secret').selectAll()
    .where((eb) => eb.or([
      eb.and([eb('owner_id', '=', ownerId), eb('repo_id', '=', 0)]),
      eb.and([eb('owner_id', '=', 0), eb('repo_id', '=', repoId)]),
    ]))
    .execute();
}

export async function insertSecret(db: DB, s: ActionsScope, row: { name: string; data: string; description: string; created_unix: number }): Promise<void> {
  await db.insertInto('action_secret').values({ owner_id: s.ownerId, repo_id: s.repoId, ...row }).execute();
}

export async function updateSecret(db: DB, id: number, patch: { data: string; description: string }): Promise<void> {
  await db.updateTable('action_secret').set(patch).where('id', '=', id).execute();
}

export async function deleteSecret(db: DB, id: number): Promise<void> {
  await db.deleteFrom('action_secret').where('id', '=', id).execute();
}
