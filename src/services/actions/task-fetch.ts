import type { ActionRunner } from '../../db/schema';
import { tasksVersion } from '../../models/actions-tasks';
import { buildTaskPayload, type TaskPayload } from './task-payload';
import { pickTask } from './tasks';
import type { Hearth } from '../../hearth';

/** A runner's FetchTask: the task it takes now, if any, with its payload, and the tasks version it is told. */
export async function fetchTask(h: Hearth, runner: ActionRunner): Promise<{ payload: TaskPayload | null; version: number }> {
  // Gitea skips the lookup when the runner's tasks_version is current; a lookup is one indexed
  // query here, so every fetch looks (a job queued within the same second is never missed).
  const picked = await pickTask(h, runner);
  const version = await tasksVersion(h.db);
  return { payload: picked ? await buildTaskPayload(h, picked.task, picked.job, picked.token) : null, version };
}
