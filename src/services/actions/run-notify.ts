import type { Config } from '../../config/schema';
import type { Hearth } from '../../hearth';
import type { ActionRun, ActionRunJob, Repository, User } from '../../db/schema';
import { ghostUser } from '../../convert/issue';
import { toApiWorkflowJob, toApiWorkflowRun } from '../../convert/actions-run';
import { toApiWorkflow } from '../../convert/actions-workflow';
import { repoDir } from '../../git/repo';
import { isoTime } from '../../lib/time';
import { latestCommitStatuses } from '../../models/commit-status';
import { jobsOfRun } from '../../models/actions-engine';
import { getRunnerById } from '../../models/actions-runners';
import { getTask, stepsOfTask } from '../../models/actions-tasks';
import { getUserById } from '../../models/user';
import { ACCESS } from '../permissions';
import { createCommitStatus, type StatusState } from '../repo/commit-statuses';
import { dispatch } from '../webhook/dispatch';
import type { Payload } from '../webhook/payloads';
import { listWorkflowFiles } from './workflow-files';
import { readYaml } from './workflow/parse';

// What the outside world sees of runs and jobs: one commit status per job (Gitea's
// createCommitStatus: `{workflow} / {job} ({event})`, pending -> success/failure/skipped) and the
// workflow_run / workflow_job webhook events. Failures here are logged by the caller, never fatal.

/** Gitea's actions pseudo user (id -2), the creator of the statuses and the sender of the events. */
export function actionsUser(): User {
  return { ...ghostUser(), id: -2, name: 'gitea-actions', lower_name: 'gitea-actions', full_name: 'Gitea Actions', email: 'teabot@gitea.io' };
}

function duration(job: ActionRunJob): string {
  const s = Math.max(0, (job.stopped_unix ?? 0) - (job.started_unix ?? job.stopped_unix ?? 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s % 60}s`;
}

function describe(job: ActionRunJob): [StatusState, string] {
  switch (job.status) {
    case 'success': return ['success', `Successful in ${duration(job)}`];
    case 'failure': return ['failure', `Failing after ${duration(job)}`];
    case 'cancelled': return ['failure', 'Has been cancelled'];
    case 'skipped': return ['skipped', 'Has been skipped'];
    case 'running': return ['pending', 'Has started running'];
    case 'blocked': return ['pending', 'Blocked by required conditions'];
    default: return ['pending', 'Waiting to run'];
  }
}

/** The workflow's display name: its `name:`, else the file name. */
export function workflowName(run: Pick<ActionRun, 'workflow_id'>, job?: Pick<ActionRunJob, 'workflow_payload'>): string {
  try {
    const doc = job ? readYaml(job.workflow_payload) as { name?: unknown } | null : null;
    if (doc && typeof doc.name === 'string' && doc.name) return doc.name;
  } catch { /* the file name */ }
  return run.workflow_id.split('/').pop() ?? run.workflow_id;
}

export const runHtmlUrl = (config: Config, repoPath: string, run: Pick<ActionRun, 'run_index'>) =>
  `${config.server.root_url}${repoPath}/actions/runs/${run.run_index}`;

/** A run with its repository and owner, on the handle of the change that moved it. */
export type NotifyCtx = { h: Hearth; repo: Repository; owner: User; run: ActionRun };

/** Posts the job's commit status unless the latest one of its context already says the same. */
export async function postJobStatus(n: NotifyCtx, job: ActionRunJob, jobIndex: number): Promise<void> {
  if (!n.run.commit_sha) return;
  const context = `${workflowName(n.run, job)} / ${job.name} (${n.run.event})`;
  const [state, description] = describe(job);
  const { rows } = await latestCommitStatuses(n.h.db, n.repo.id, n.run.commit_sha, { offset: 0, limit: 1000 });
  const last = rows.find((r) => r.context === context);
  if (last && last.state === state && last.description === description) return;
  const access = { repo: n.repo, owner: n.owner, mode: ACCESS.owner };
  const target = `${runHtmlUrl(n.h.config, `${n.owner.name}/${n.repo.name}`, n.run)}/jobs/${jobIndex}`;
  await createCommitStatus(n.h, access, actionsUser(), n.run.commit_sha, { state, description, context, target_url: target });
}

/** The job as the API shows it (Gitea's ToActionWorkflowJob): its task, steps and runner. */
async function jobJson(n: NotifyCtx, trigger: User | null, job: ActionRunJob, index: number): Promise<Payload> {
  const task = job.task_id ? (await getTask(n.h.db, job.task_id)) ?? null : null;
  const steps = task ? await stepsOfTask(n.h.db, task.id) : [];
  const runner = task?.runner_id ? await getRunnerById(n.h.db, task.runner_id) : undefined;
  return toApiWorkflowJob(n.h.config, {
    run: n.run, repo: n.repo, owner: n.owner, trigger, job, task, steps, runnerName: runner?.name ?? '', index,
  }) as unknown as Payload;
}

/** The run's workflow as the API shows it (Gitea's ActionWorkflow), at the run's commit. */
async function workflowJson(n: NotifyCtx): Promise<Payload> {
  const dir = repoDir(n.h.config.repository.root, n.owner.name, n.repo.name);
  const file = (await listWorkflowFiles(dir, n.run.commit_sha)).find((f) => f.id === n.run.workflow_id);
  const jobs = await jobsOfRun(n.h.db, n.run.id);
  return toApiWorkflow(n.h.config, { owner: n.owner.name, name: n.repo.name }, {
    id: n.run.workflow_id, name: workflowName(n.run, jobs[0]), path: file?.path ?? `.gitea/workflows/${n.run.workflow_id}`,
    disabled: false, date: isoTime(n.run.created_unix), branch: n.run.ref.replace(/^refs\/(heads|tags)\//, ''),
  }) as unknown as Payload;
}

/** workflow_run (requested, in_progress, completed). */
export async function emitRunHook(n: NotifyCtx, action: string): Promise<void> {
  const trigger = n.run.trigger_user_id > 0 ? await getUserById(n.h.db, n.run.trigger_user_id) : undefined;
  await dispatch(n.h, n.repo, trigger ?? actionsUser(), [{
    event: 'workflow_run',
    build: async (c) => ({
      action, workflow: await workflowJson(n),
      workflow_run: toApiWorkflowRun(n.h.config, { run: n.run, repo: n.repo, owner: n.owner, trigger: trigger ?? null }, null),
      repository: c.repository, sender: c.sender,
    }),
  }]);
}

/** workflow_job (queued, waiting, in_progress, completed). */
export async function emitJobHook(n: NotifyCtx, job: ActionRunJob, index: number, action: string): Promise<void> {
  const trigger = n.run.trigger_user_id > 0 ? await getUserById(n.h.db, n.run.trigger_user_id) : undefined;
  await dispatch(n.h, n.repo, trigger ?? actionsUser(), [{
    event: 'workflow_job',
    build: async (c) => ({ action, workflow_job: await jobJson(n, trigger ?? null, job, index), repository: c.repository, sender: c.sender }),
  }]);
}
