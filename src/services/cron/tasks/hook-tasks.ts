import { deleteDeliveredBefore, deleteDeliveredBeyond, tableExists } from '../../../models/hook-task-cleanup';
import type { DB } from '../../../db/connect';

export type HookTaskCleanup = {
  /** OlderThan: by age; PerWebhook: all but the newest of each webhook (Gitea's two kinds). */
  cleanupType: 'OlderThan' | 'PerWebhook';
  olderThanMs: number;
  numberToKeep: number;
};

/**
 * Removes delivered webhook deliveries (Gitea's CleanupHookTaskTable); undelivered ones always
 * stay. Returns what it did, and does nothing on a database without the hook_task table.
 */
export async function cleanupHookTasks(db: DB, opts: HookTaskCleanup): Promise<string> {
  if (!(await tableExists(db, 'hook_task'))) return 'no hook_task table: nothing to clean up';
  if (opts.cleanupType === 'OlderThan') {
    const deleted = await deleteDeliveredBefore(db, Date.now() - opts.olderThanMs);
    return `deleted ${deleted} webhook deliveries older than ${opts.olderThanMs / 3_600_000}h`;
  }
  if (!(await tableExists(db, 'webhook'))) return 'no webhook table: nothing to clean up';
  const deleted = await deleteDeliveredBeyond(db, opts.numberToKeep);
  return `deleted ${deleted} webhook deliveries, keeping the newest ${opts.numberToKeep} of each webhook`;
}
