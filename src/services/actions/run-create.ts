import type { ActionRun, Repository, User } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { insertRun, insertRunJob, nextRunIndex, variablesFor } from '../../models/actions-engine';
import { needsApproval } from './approval';
import { githubContext } from './run-context';
import { concurrencyOf, expandJobs, runNameOf, type Concurrency, type ExpandedJob } from './workflow/expand';
import { checkInputs } from './workflow/inputs';
import { parseWorkflow, readEvents, WorkflowSyntaxError, type Workflow } from './workflow/parse';
import type { Hearth } from '../../hearth';

// A run and its jobs from one workflow file at one commit (Gitea's handleWorkflows): the file is
// parsed and its jobs expanded with the github, vars and inputs contexts; a file that cannot be
// planned still gives a run, failed, with the reason in workflow_error. Jobs are inserted
// blocked; the caller resolves them (jobs without needs then wait for a runner, unless the run
// waits for a writer's approval: approval.ts).

export type RunSpec = {
  repo: Repository; owner: User; doer: User;
  workflowId: string; content: string;
  ref: string; sha: string; event: string; triggerEvent?: string;
  payload: Record<string, unknown>;
  /** The commit's first line (Gitea's title when the workflow has no run-name). */
  title: string;
  isForkPull?: boolean; scheduleId?: number | null;
};

type Plan = { wf: Workflow | null; jobs: ExpandedJob[]; title: string; concurrency: Concurrency | null; error: string | null };

/**
 * The `inputs` context: github.event.inputs keeps strings (as on GitHub), the context has the
 * declared types (booleans, numbers), read from the workflow's workflow_dispatch declarations.
 */
export function typedInputs(workflowText: string | undefined, raw: Record<string, unknown>): Record<string, unknown> {
  if (!workflowText) return raw;
  try {
    const evt = readEvents(workflowText).find((e) => e.name === 'workflow_dispatch');
    return evt ? { ...raw, ...checkInputs(evt.inputs, raw).typed } : raw;
  } catch {
    return raw;
  }
}

/** The contexts expressions read while planning: github (gitea), vars, inputs. */
export async function planContext(
  h: Hearth, run: Parameters<typeof githubContext>[1], repo: Repository, owner: User, actor: User | null, workflowText?: string,
) {
  const github = githubContext(h.config, run, repo, owner, actor);
  const event = github.event as { inputs?: Record<string, unknown> };
  const vars = await variablesFor(h.db, repo.owner_id, repo.id);
  return { github, gitea: github, vars, inputs: typedInputs(workflowText, event.inputs ?? {}), env: {}, secrets: {} };
}

function plan(content: string, ctx: Record<string, unknown>, fallbackTitle: string): Plan {
  let wf: Workflow | null = null;
  try {
    wf = parseWorkflow(content);
    const jobs = expandJobs(wf, ctx);
    return { wf, jobs, title: runNameOf(wf, ctx) || fallbackTitle, concurrency: concurrencyOf(wf.concurrency, ctx), error: null };
  } catch (err) {
    const message = err instanceof WorkflowSyntaxError ? err.message : `invalid workflow: ${(err as Error).message}`;
    return { wf, jobs: [], title: fallbackTitle, concurrency: null, error: message };
  }
}

/** Inserts the run and its (blocked) jobs; a workflow that cannot be planned gives a failed run. */
export async function insertPlannedRun(h: Hearth, spec: RunSpec): Promise<ActionRun> {
  const now = nowUnix();
  const payloadText = JSON.stringify(spec.payload);
  const draft = { id: 0, run_index: 0, workflow_id: spec.workflowId, ref: spec.ref, commit_sha: spec.sha, event: spec.event, event_payload: payloadText };
  const ctx = await planContext(h, draft, spec.repo, spec.owner, spec.doer, spec.content);
  const p = plan(spec.content, ctx, spec.title);
  const triggerEvent = spec.triggerEvent ?? spec.event;
  // A run that failed to plan has no job to hold.
  const hold = !p.error && (await needsApproval(h.db, { ...spec, isForkPull: !!spec.isForkPull, triggerEvent }));
  return h.db.transaction().execute(async (trx) => {
    const run = await insertRun(trx, {
      repo_id: spec.repo.id, owner_id: spec.repo.owner_id, run_index: await nextRunIndex(trx, spec.repo.id), title: p.title,
      workflow_id: spec.workflowId, trigger_user_id: spec.doer.id, schedule_id: spec.scheduleId ?? null, ref: spec.ref,
      commit_sha: spec.sha, event: spec.event, trigger_event: triggerEvent, event_payload: payloadText,
      is_fork_pull_request: spec.isForkPull ? 1 : 0, need_approval: hold ? 1 : 0, status: p.error ? 'failure' : 'blocked',
      concurrency_group: p.concurrency?.group ?? null, concurrency_cancel: p.concurrency?.cancelInProgress ? 1 : 0,
      workflow_error: p.error, started_unix: null, stopped_unix: p.error ? now : null, created_unix: now, updated_unix: now,
    });
    for (const j of p.jobs) {
      await insertRunJob(trx, {
        run_id: run.id, repo_id: spec.repo.id, owner_id: spec.repo.owner_id, commit_sha: spec.sha, name: j.name,
        job_id: j.jobId, attempt: 0, workflow_payload: j.payload, needs: JSON.stringify(j.needs), runs_on: JSON.stringify(j.runsOn),
        if_expr: j.ifExpr, matrix: j.matrix ? JSON.stringify(j.matrix) : null, timeout_minutes: j.timeoutMinutes,
        continue_on_error: j.continueOnError ? 1 : 0, task_id: null, status: 'blocked', started_unix: null, stopped_unix: null,
        raw_concurrency: j.concurrency === null ? '' : JSON.stringify(j.concurrency), max_parallel: j.maxParallel,
        created_unix: now, updated_unix: now,
      });
    }
    return run;
  });
}
