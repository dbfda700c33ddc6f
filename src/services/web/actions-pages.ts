import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { ActionTaskLog, ActionTaskStep, User } from '../../db/schema';
import type { JobView, RunView } from '../../convert/actions-run';
import { refTarget } from '../../git/refs';
import { NotFoundError } from '../../lib/errors';
import * as q from '../../models/actions-run-query';
import type { PageWindow } from '../../models/actions-secrets';
import { getRun, listJobs, listRuns, type RunQuery } from '../actions/api-runs';
import { listWorkflows, type WorkflowView } from '../actions/api-workflows';
import { listWorkflowFiles, readWorkflowFile } from '../actions/workflow-files';
import type { DispatchInput } from '../actions/workflow/events';
import { readEvents } from '../actions/workflow/parse';
import { ACCESS } from '../permissions';
import { repoDirOf } from '../repo/commits';
import { settingsOf } from '../repo/repo-settings';
import { unitModeOf, type RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// What the Actions pages show, read through the services the API's Actions routes use: the run
// list with its filters, a run (by its number in the repository, as Gitea's web links) with its
// jobs and artifacts, a job with its steps and their log lines, and a workflow's declared
// workflow_dispatch inputs for the dispatch form.

/** The visitor's access to the Actions unit: none (404), read, or write (the writers' buttons). */
export async function actionsMode(h: Hearth, access: RepoAccess, viewer: User | null): Promise<'none' | 'read' | 'write'> {
  if (!h.config.actions.enabled || !settingsOf(access.repo).has_actions) return 'none';
  const mode = await unitModeOf(h.db, access, viewer, 'repo.actions');
  if (mode >= ACCESS.write && viewer) return 'write';
  return mode >= ACCESS.read ? 'read' : 'none';
}

export type RunsPage = { views: RunView[]; total: number; workflows: WorkflowView[] };

export async function runsPage(h: Hearth, access: RepoAccess, query: RunQuery, page: PageWindow): Promise<RunsPage> {
  const [{ views, total }, workflows] = await Promise.all([
    listRuns(h.db, { ownerId: 0, repoId: access.repo.id }, query, page),
    listWorkflows(h, access),
  ]);
  return { views, total, workflows };
}

async function runOfIndex(db: DB, access: RepoAccess, index: number): Promise<RunView> {
  const row = Number.isSafeInteger(index) && index > 0 ? await q.getRunByIndex(db, access.repo.id, index) : undefined;
  if (!row) throw new NotFoundError('run not found');
  return getRun(db, access.repo.id, row.id);
}

export type RunPage = { view: RunView; jobs: JobView[]; artifacts: q.ArtifactMeta[] };

export async function runPage(db: DB, access: RepoAccess, index: number): Promise<RunPage> {
  const view = await runOfIndex(db, access, index);
  const { views } = await listJobs(db, { ownerId: 0, repoId: access.repo.id, runId: view.run.id }, [], { offset: 0, limit: 1000 });
  const artifacts = await q.uploadedArtifactsMeta(db, access.repo.id, view.run.id);
  return { view, jobs: views.sort((a, b) => a.index - b.index), artifacts };
}

/** A step's lines of the job log; lines outside every step (the job's set-up) have no step. */
export type LogSection = { step: ActionTaskStep | null; lines: ActionTaskLog[] };
export type JobPage = RunPage & { job: JobView; sections: LogSection[]; lineCount: number };

/** Splits log rows among the steps by each step's range (log_index, log_length). */
export function sectionsOf(steps: ActionTaskStep[], rows: ActionTaskLog[]): LogSection[] {
  const sections: LogSection[] = [];
  const inSteps = new Set<number>();
  for (const step of steps) {
    const end = step.log_index + step.log_length;
    const lines = rows.filter((r) => r.idx >= step.log_index && r.idx < end);
    for (const l of lines) inSteps.add(l.idx);
    sections.push({ step, lines });
  }
  const rest = rows.filter((r) => !inSteps.has(r.idx));
  return rest.length ? [{ step: null, lines: rest }, ...sections] : sections;
}

/** The job by its place among the run's jobs (0-based, as Gitea's web links), its log split by step. */
export async function jobPage(db: DB, access: RepoAccess, runIndex: number, jobIndex: number): Promise<JobPage> {
  const run = await runPage(db, access, runIndex);
  const job = Number.isSafeInteger(jobIndex) ? run.jobs[jobIndex] : undefined;
  if (!job) throw new NotFoundError('job not found');
  const rows = job.task && !job.task.log_expired ? await q.logRows(db, job.task.id) : [];
  return { ...run, job, sections: sectionsOf(job.steps, rows), lineCount: rows.length };
}

/** The lines of a job's log from `from` on (the live view's poll). */
export async function jobLogFrom(db: DB, access: RepoAccess, runIndex: number, jobIndex: number, from: number): Promise<{ job: JobView; lines: ActionTaskLog[] }> {
  const { jobs } = await runPage(db, access, runIndex);
  const job = Number.isSafeInteger(jobIndex) ? jobs[jobIndex] : undefined;
  if (!job) throw new NotFoundError('job not found');
  const lines = job.task && !job.task.log_expired ? await q.logRowsFrom(db, job.task.id, Math.max(0, from)) : [];
  return { job, lines };
}

/** The workflow_dispatch inputs a workflow declares on the default branch; null when it has no such trigger. */
export async function dispatchInputs(config: Config, access: RepoAccess, workflowId: string): Promise<DispatchInput[] | null> {
  const dir = repoDirOf(config, access);
  const head = access.repo.is_empty ? null : await refTarget(dir, `refs/heads/${access.repo.default_branch}`);
  const file = head ? (await listWorkflowFiles(dir, head)).find((f) => f.id === workflowId) : undefined;
  if (!file) throw new NotFoundError(`workflow "${workflowId}" not found`);
  try {
    return readEvents(await readWorkflowFile(dir, file)).find((e) => e.name === 'workflow_dispatch')?.inputs ?? null;
  } catch {
    return null;
  }
}
