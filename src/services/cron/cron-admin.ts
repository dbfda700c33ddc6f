import type { DB } from '../../db/connect';
import { NotFoundError } from '../../lib/errors';
import { cronOf } from './scheduler';
import type { CronRow } from './types';
import { recordAudit } from '../audit/record';

/** The tasks of the running scheduler (none when the server runs without one), with the cluster's last runs on PostgreSQL. */
export async function listCronTasks(db: DB): Promise<CronRow[]> {
  return (await cronOf(db)?.listRuns()) ?? [];
}

/**
 * Starts a task now, in the background, as Gitea's adminCronRun; a run while the task still runs
 * is skipped (and logged). 404 for a task the scheduler does not know.
 */
export async function runCronTask(db: DB, name: string, by: string): Promise<void> {
  const scheduler = cronOf(db);
  if (!scheduler?.has(name)) throw new NotFoundError();
  // No change of its own to go with: the row records that an admin started the task.
  await recordAudit(db, { op: 'admin.cron.run', target: { type: 'cron', id: 0, name } });
  scheduler.run(name, 'manual', by);
}
