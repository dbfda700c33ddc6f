import { nowUnix } from '../../../lib/time';
import { deleteActionsBefore } from '../../../models/action';
import type { CronContext } from '../types';

/**
 * delete_old_actions (Gitea's DeleteOldActions): activity feed rows created more than
 * `olderThanMs` ago go; 0 keeps them all, as Gitea.
 */
export async function deleteOldActions(ctx: CronContext, olderThanMs: number): Promise<string> {
  if (olderThanMs <= 0) return 'older_than is 0: the activity feed is kept whole';
  const deleted = await deleteActionsBefore(ctx.db, nowUnix() - Math.floor(olderThanMs / 1000));
  return `deleted ${deleted} activity feed rows older than ${olderThanMs / 3_600_000}h`;
}
