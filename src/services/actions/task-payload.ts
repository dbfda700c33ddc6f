import type { DB } from '../../db/connect';
import type { ActionRunJob, ActionTask } from '../../db/schema';
import { getRun, jobsOfRun, outputsOfTask } from '../../models/actions-engine';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { githubContext } from './run-context';
import { needResult } from './run-state';
import { createRuntimeToken } from './runtime-token';
import { secretsForTask } from './secrets';
import { variablesForTask } from './variables';
import type { Hearth } from '../../hearth';

// What a runner receives with a task (Gitea's routers/api/actions/runner/utils.go): the job's
// workflow, the github context (generateTaskContext) with the job token, secrets, variables and
// the results and outputs of the jobs it needs.

export type TaskNeedData = { result: string; outputs: Record<string, string> };
export type TaskPayload = {
  id: number;
  workflowPayload: string;
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, TaskNeedData>;
};

/** Gitea's DEFAULT_ACTIONS_URL default: `uses: actions/x` resolves on github.com. */
const DEFAULT_ACTIONS_URL = 'https://github.com';

async function needsOf(db: DB, job: ActionRunJob): Promise<Record<string, TaskNeedData>> {
  let ids: string[] = [];
  try {
    ids = (JSON.parse(job.needs) as unknown[]).map(String);
  } catch { /* no needs */ }
  if (!ids.length) return {};
  const all = await jobsOfRun(db, job.run_id);
  const out: Record<string, TaskNeedData> = {};
  for (const id of ids) {
    const jobs = all.filter((j) => j.job_id === id);
    const outputs: Record<string, string> = {};
    for (const j of jobs) Object.assign(outputs, await outputsOfTask(db, j.task_id));
    out[id] = { result: needResult(jobs) ?? '', outputs };
  }
  return out;
}

export async function buildTaskPayload(h: Hearth, task: ActionTask, job: ActionRunJob, token: string): Promise<TaskPayload> {
  const run = await getRun(h.db, job.run_id);
  const repo = await getRepoById(h.db, task.repo_id);
  const owner = repo ? await getUserById(h.db, repo.owner_id) : undefined;
  if (!run || !repo || !owner) throw new Error(`task ${task.id}: run or repository gone`);
  const actor = run.trigger_user_id > 0 ? (await getUserById(h.db, run.trigger_user_id)) ?? null : null;
  const context = {
    ...githubContext(h.config, run, repo, owner, actor),
    token, job: job.job_id, run_attempt: String(task.attempt),
    gitea_default_actions_url: DEFAULT_ACTIONS_URL,
    gitea_runtime_token: createRuntimeToken(h.secret, { taskId: task.id, runId: run.id, jobId: job.id }),
  };
  // A pull request from a fork must not read the base repository's secrets (Gitea).
  const forkPull = !!run.is_fork_pull_request && run.trigger_event !== 'pull_request_target';
  const secrets = forkPull ? {} : await secretsForTask(h.db, h.secret, repo.owner_id, repo.id);
  return {
    id: task.id,
    workflowPayload: job.workflow_payload,
    context,
    secrets: { ...secrets, GITEA_TOKEN: token, GITHUB_TOKEN: token },
    vars: await variablesForTask(h.db, repo.owner_id, repo.id),
    needs: await needsOf(h.db, job),
  };
}
