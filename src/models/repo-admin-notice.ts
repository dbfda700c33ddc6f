import type { DB } from '../db/connect';
import { NOTIFY_SOURCE, NOTIFY_STATUS } from './notification';

// The queries of the notices to repository admins (services/notification/repo-admins.ts).

export const orgMemberIds = async (db: DB, orgId: number): Promise<number[]> =>
  (await db.selectFrom('org_user').select('uid').where('org_id', '=', orgId).execute()).map((r) => r.uid);

/** The user's unread repository thread of a repository, if any. */
export const unreadRepoThread = (db: DB, userId: number, repoId: number) =>
  db.selectFrom('notification').select('id').where('user_id', '=', userId).where('repo_id', '=', repoId)
    .where('source', '=', NOTIFY_SOURCE.repository).where('status', '=', NOTIFY_STATUS.unread).executeTakeFirst();

export async function touchThread(db: DB, id: number, now: number): Promise<void> {
  await db.updateTable('notification').set({ updated_unix: now }).where('id', '=', id).execute();
}
