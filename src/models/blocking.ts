import type { DB } from '../db/connect';

/** Whether any of `blockerIds` has blocked `blockeeId` (Gitea's IsUserBlockedBy). */
export async function isBlockedBy(db: DB, blockeeId: number, blockerIds: number[]): Promise<boolean> {
  // No one blocks themselves (blocks.ts refuses it): acting in one's own repository asks nothing.
  const blockers = blockerIds.filter((id) => id !== blockeeId);
  if (!blockers.length) return false;
  const row = await db.selectFrom('user_block').select('id')
    .where('blockee_id', '=', blockeeId).where('blocker_id', 'in', blockers).executeTakeFirst();
  return !!row;
}
