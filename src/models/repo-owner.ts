import type { DB } from '../db/connect';

/** Moves a user's or organization's repository count by `delta`. */
export async function bumpUserRepos(db: DB, uid: number, delta: number): Promise<void> {
  await db.updateTable('user').set((eb) => ({ num_repos: eb('num_repos', '+', delta) })).where('id', '=', uid).execute();
}

/** The fork of `baseId` that `ownerId` already owns, if any (one per owner, as Gitea). */
export async function getForkByOwner(db: DB, baseId: number, ownerId: number): Promise<{ name: string; owner_name: string } | undefined> {
  return db.selectFrom('repository').select(['name', 'owner_name'])
    .where('fork_id', '=', baseId).where('owner_id', '=', ownerId).executeTakeFirst();
}
