import type { DB } from '../../db/connect';
import type { ActionRunner } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import * as m from '../../models/actions-runners';
import type { ActionsScope, PageWindow } from '../../models/actions-secrets';

// Runners as the REST API manages them (Gitea's routers/api/v1/shared/runners.go). A runner is
// online when it talked to the server within the last minute (RunnerOfflineTime), busy when it
// runs a task or reported on one within 10 seconds (RunnerIdleTime).

export const RUNNER_OFFLINE_SECONDS = 60;
export const RUNNER_IDLE_SECONDS = 10;

export type RunnerView = { runner: ActionRunner; online: boolean; busy: boolean };

async function viewsOf(db: DB, rows: ActionRunner[]): Promise<RunnerView[]> {
  const running = await m.runnersWithRunningTask(db, rows.map((r) => r.id));
  const now = nowUnix();
  return rows.map((runner) => {
    const online = now - runner.last_online_unix <= RUNNER_OFFLINE_SECONDS;
    const busy = online && (running.has(runner.id) || now - runner.last_active_unix <= RUNNER_IDLE_SECONDS);
    return { runner, online, busy };
  });
}

export async function listRunners(
  db: DB, scope: ActionsScope, page: PageWindow, disabled: boolean | undefined,
): Promise<{ views: RunnerView[]; total: number }> {
  const { rows, total } = await m.listRunners(db, { ...scope, disabled }, page);
  return { views: await viewsOf(db, rows), total };
}

/**
 * Gitea's EditableInContext: at instance level (a site admin) every runner, wherever it is
 * registered; at an owner's level that owner's, at a repository's that repository's; another
 * scope's runner is not found.
 */
function editableIn(r: ActionRunner, scope: ActionsScope): boolean {
  if (scope.ownerId === 0 && scope.repoId === 0) return true;
  if (r.repo_id) return r.repo_id === scope.repoId;
  if (r.owner_id) return r.owner_id === scope.ownerId && !scope.repoId;
  return false;
}

async function scopedRunner(db: DB, scope: ActionsScope, id: number): Promise<ActionRunner> {
  const r = Number.isSafeInteger(id) && id > 0 ? await m.getRunnerById(db, id) : undefined;
  if (!r) throw new NotFoundError('Runner not found');
  if (!editableIn(r, scope)) throw new NotFoundError('No permission to access this runner');
  return r;
}

export async function getRunner(db: DB, scope: ActionsScope, id: number): Promise<RunnerView> {
  return (await viewsOf(db, [await scopedRunner(db, scope, id)]))[0]!;
}

export async function deleteRunner(db: DB, scope: ActionsScope, id: number): Promise<void> {
  const r = await scopedRunner(db, scope, id);
  await m.softDeleteRunner(db, r.id, nowUnix());
}

/** PATCH {disabled}: a disabled runner keeps its registration but is handed no task. */
export async function setRunnerDisabled(db: DB, scope: ActionsScope, id: number, disabled: boolean): Promise<RunnerView> {
  const r = await scopedRunner(db, scope, id);
  await m.setRunnerDisabled(db, r.id, disabled, nowUnix());
  return getRunner(db, scope, id);
}
