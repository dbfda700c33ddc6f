import type { DB } from '../../db/connect';
import type { ActionRunner } from '../../db/schema';
import { tasksVersion } from '../../models/actions-tasks';
import type { ActionsDeps } from './runs';
import { buildTaskPayload, type TaskPayload } from './task-payload';
import { pickTask } from './tasks';

/** A runner's FetchTask: the task it takes now, if any, with its payload, and the tasks version it is told. */
export async function fetchTask(db: DB, deps: ActionsDeps, runner: ActionRunner): Promise<{ payload: TaskPayload | null; version: number }> {
  // Gitea skips the lookup when the runner's tasks_version is current; a lookup is one indexed
  // query here, so every fetch looks (a job queued within the same second is never missed).
  const picked = await pickTask(db, deps, runner);
  const version = await tasksVersion(db);
  return { payload: picked ? await buildTaskPayload(db, deps, picked.task, picked.job, picked.token) : null, version };
}
