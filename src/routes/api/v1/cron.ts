import type { Request, Response } from 'express';
import { listCronTasks, runCronTask } from '../../../services/cron/cron-admin';
import type { CronRow } from '../../../services/cron/types';
import { doerOf } from '../../context';
import { pageOf, setTotalCount } from '../../pagination';
import { pathParam } from '../../table';

// Go's zero time.Time: what Gitea sends for a task never run or not scheduled.
const ZERO_TIME = '0001-01-01T00:00:00Z';
const timeOf = (d: Date | null) => (d ? d.toISOString().replace('.000Z', 'Z') : ZERO_TIME);

/** Gitea's structs.Cron. */
const toApiCron = (t: CronRow) => ({
  name: t.name, schedule: t.schedule, next: timeOf(t.next), prev: timeOf(t.prev), exec_times: t.execTimes,
});

/** GET /admin/cron: a page of the task table; X-Total-Count only, as Gitea (no Link). */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const tasks = await listCronTasks(req.ctx.db);
  setTotalCount(res, tasks.length);
  res.json(tasks.slice(page.offset, page.offset + page.limit).map(toApiCron));
}

/** POST /admin/cron/{task}: 204 at once; the run goes on in the background. */
export async function run(req: Request, res: Response): Promise<void> {
  await runCronTask(req.ctx.db, pathParam(req, 'task'), doerOf(req).name);
  res.status(204).end();
}
