import type { Config } from '../config/schema';
import type { ActionArtifact, ActionRun, ActionRunJob, ActionTask, ActionTaskStep, Repository, User } from '../db/schema';
import { isoTime } from '../lib/time';
import { ghostUser } from './issue';
import { repoUrls, toApiRepo } from './repo';
import { toApiUser } from './user';

// Gitea's ToActionWorkflowRun, ToActionWorkflowJob, ToActionTask and ToActionArtifact.

/** A run with what its JSON shows: its repository, the repository's owner, who triggered it. */
export type RunView = { run: ActionRun; repo: Repository; owner: User; trigger: User | null };
/** A job with its run, its latest task and that task's steps, and its index among the run's jobs. */
export type JobView = RunView & { job: ActionRunJob; task: ActionTask | null; steps: ActionTaskStep[]; runnerName: string; index: number };

const DONE = new Set(['success', 'failure', 'cancelled', 'skipped']);

/** Gitea's ToActionsStatus: its `status` and `conclusion` for one of our status values. */
export function actionsStatus(status: string): { status: string; conclusion: string } {
  if (DONE.has(status)) return { status: 'completed', conclusion: status };
  const map: Record<string, string> = { waiting: 'queued', blocked: 'waiting', running: 'in_progress' };
  return { status: map[status] ?? '', conclusion: '' };
}

/** The branch of a full ref name (refs/heads/x -> x), '' for other refs, as git.RefName.BranchName. */
export const branchOf = (ref: string) => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : '');
/** Gitea's PrettyRef: branch or tag name, else the ref as is. */
const prettyRef = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');
const time = (unix: number | null) => isoTime(unix ?? 0);

/** Gitea's pseudo user of automatic triggers (schedules) has id -2. */
function triggerUser(v: RunView): User {
  if (v.trigger) return v.trigger;
  if (v.run.trigger_user_id === -2) return { ...ghostUser(), id: -2, name: 'gitea-actions', lower_name: 'gitea-actions' };
  return ghostUser();
}

export const runApiUrl = (config: Config, v: RunView) => `${repoUrls(config, v.owner.name, v.repo.name).url}/actions/runs/${v.run.id}`;
const runHtmlUrl = (config: Config, v: RunView) => `${repoUrls(config, v.owner.name, v.repo.name).html_url}/actions/runs/${v.run.run_index}`;

export function toApiWorkflowRun(config: Config, v: RunView, viewer: User | null) {
  const { run } = v;
  const actor = toApiUser(config, triggerUser(v), viewer);
  return {
    id: run.id,
    url: runApiUrl(config, v),
    html_url: runHtmlUrl(config, v),
    run_number: run.run_index,
    run_attempt: 1,
    started_at: time(run.started_unix),
    completed_at: time(run.stopped_unix),
    event: run.event,
    display_title: run.title,
    head_branch: branchOf(run.ref),
    head_sha: run.commit_sha,
    ...actionsStatus(run.status),
    path: `${run.workflow_id}@${run.ref}`,
    repository_id: run.repo_id,
    repository: toApiRepo(config, { repo: v.repo, owner: v.owner, mode: 0 }, viewer),
    trigger_actor: actor,
    actor,
    // Beyond Gitea's JSON: why a run failed before any job (an invalid workflow file), which
    // Gitea shows only in its web UI.
    ...(run.workflow_error ? { workflow_error: run.workflow_error } : {}),
  };
}

export function toApiWorkflowJob(config: Config, v: JobView) {
  const { job, run, task } = v;
  const repoApi = repoUrls(config, v.owner.name, v.repo.name).url;
  return {
    id: job.id,
    url: `${repoApi}/actions/jobs/${job.id}`,
    html_url: `${runHtmlUrl(config, v)}/jobs/${v.index}`,
    run_id: job.run_id,
    run_url: `${repoApi}/actions/runs/${job.run_id}`,
    name: job.name,
    labels: parseList(job.runs_on),
    run_attempt: job.attempt,
    head_sha: run.commit_sha,
    head_branch: branchOf(run.ref),
    ...actionsStatus(job.status),
    runner_id: task?.runner_id ?? 0,
    runner_name: v.runnerName,
    steps: v.steps.map((s, i) => ({
      name: s.name, number: i, ...actionsStatus(s.status), started_at: time(s.started_unix), completed_at: time(s.stopped_unix),
    })),
    created_at: isoTime(job.created_unix),
    started_at: time(job.started_unix),
    completed_at: time(job.stopped_unix),
  };
}

/** Gitea's ToActionTask (the entries of ListActionTasks). */
export function toApiActionTask(config: Config, v: JobView) {
  const { run, job, task } = v;
  return {
    id: task!.id,
    name: job.name,
    head_branch: prettyRef(run.ref),
    head_sha: job.commit_sha,
    run_number: run.run_index,
    event: run.trigger_event,
    display_title: run.title,
    status: task!.status,
    workflow_id: run.workflow_id,
    url: `${runHtmlUrl(config, v)}/jobs/${v.index}`,
    created_at: isoTime(task!.created_unix),
    updated_at: isoTime(task!.updated_unix),
    run_started_at: time(task!.started_unix),
  };
}

export function toApiArtifact(config: Config, repo: { owner: string; name: string }, a: ActionArtifact) {
  const url = `${repoUrls(config, repo.owner, repo.name).url}/actions/artifacts/${a.id}`;
  return {
    id: a.id,
    name: a.artifact_name,
    size_in_bytes: a.file_size,
    expired: a.status === 'expired',
    url,
    archive_download_url: `${url}/zip`,
    created_at: isoTime(a.created_unix),
    updated_at: isoTime(a.updated_unix),
    expires_at: isoTime(a.expired_unix),
    workflow_run: { id: a.run_id, repository_id: a.repo_id, head_sha: a.commit_sha },
  };
}

function parseList(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch { return []; }
}
