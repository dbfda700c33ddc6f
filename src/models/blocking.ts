import type { DB } from '../db/connect';

/** Whether any of `blockerIds` has blocked `blockeeId` (Gitea's IsUserBlockedBy). */
export async function isBlockedBy(db: DB, blockeeId: number, blockerIds: number[]): Promise<boolean> {
  if (!blockerIds.length) return false;
  const row = await db.selectFrom('user_block').select('id')
    .where('blockee_id', '=', blockeeId).where('blocker_id', 'in', blockerIds).executeTakeFirst();
  return !!row;
}
