import type { Hearth } from '../../hearth';
import type { User } from '../../db/schema';
import type { RunView } from '../../convert/actions-run';
import type { RepoAccess } from '../repo/repos';
import { getRun } from './api-runs';
import { approveRun, cancelRun, dispatchWorkflow } from './runs';

// The REST API's entries into the engine: workflow_dispatch, the cancel extension and approvals.

/** The instance handle (the name stays for the callers that spell it). */
export type ApiDeps = Hearth;

export async function dispatchFromApi(
  d: ApiDeps, access: RepoAccess, doer: User, workflowId: string, ref: string, inputs: Record<string, string>,
): Promise<void> {
  await dispatchWorkflow(d, access.repo, doer, workflowId, ref, inputs);
}

/** The run must be the repository's (another repository's run is not found). */
export async function cancelFromApi(d: ApiDeps, repoId: number, runId: number, doer: User): Promise<void> {
  const { run } = await getRun(d.db, repoId, runId);
  await cancelRun(d, run.id, doer);
}

/**
 * Approves a run of the repository waiting for approval (a run that waits for none is left as
 * it is, as Gitea answers a second approval); the run as it is afterwards.
 */
export async function approveFromApi(d: ApiDeps, repoId: number, runId: number, doer: User): Promise<RunView> {
  const { run } = await getRun(d.db, repoId, runId);
  await approveRun(d, run.id, doer);
  return getRun(d.db, repoId, run.id);
}
