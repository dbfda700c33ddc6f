import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import type { RepoAccess } from '../repo/repos';
import { getRun } from './api-runs';
import { cancelRun, dispatchWorkflow } from './runs';

// The REST API's entries into the engine: workflow_dispatch and the cancel extension.

export type ApiDeps = { db: DB; config: Config; secret: string };

export async function dispatchFromApi(
  d: ApiDeps, access: RepoAccess, doer: User, workflowId: string, ref: string, inputs: Record<string, string>,
): Promise<void> {
  await dispatchWorkflow(d.db, { config: d.config, secret: d.secret }, access.repo, doer, workflowId, ref, inputs);
}

/** The run must be the repository's (another repository's run is not found). */
export async function cancelFromApi(d: ApiDeps, repoId: number, runId: number, doer: User): Promise<void> {
  const { run } = await getRun(d.db, repoId, runId);
  await cancelRun(d.db, { config: d.config, secret: d.secret }, run.id, doer);
}
