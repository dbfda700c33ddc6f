// Runs one task as act_runner would, on the host: a fresh directory per job under the runner's
// work directory (workspace, temp, actions), the steps in order with the job's status, the job's
// outputs, then the final result; logs and state go through the Reporter all along.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { interpolate, toStr } from '../lib/actions-expr';
import { githubEnv, hostEnv } from './contexts';
import { parseJob, type JobDef } from './job';
import { Masker } from './masker';
import { ProcessGroups } from './process';
import { Reporter } from './reporter';
import { exprContext, type JobRun, type StepScope } from './scope';
import { evalValue, interpolateEnv, runStep } from './steps';
import type { ReportSink, RunnerTask, StepResult } from './types';

export interface ExecuteOptions {
  workDir: string;
  runnerName: string;
  /** Aborted when the runner shuts down: the job is cancelled. */
  signal?: AbortSignal;
  /** Keep the job directory afterwards (debugging). */
  keepWorkspace?: boolean;
}

const DEFAULT_JOB_TIMEOUT_MIN = 360;
/** How long a step may run once the job was cancelled (GitHub's cancel-timeout-minutes). */
const CLEANUP_STEP_LIMIT_MS = 5 * 60_000;

export async function executeTask(task: RunnerTask, sink: ReportSink, opts: ExecuteOptions): Promise<StepResult> {
  const masker = new Masker(Object.values(task.secrets));
  for (const key of ['token', 'gitea_runtime_token']) {
    if (typeof task.context[key] === 'string') masker.add(task.context[key] as string);
  }
  let job: JobDef;
  let run: JobRun;
  const root = path.join(opts.workDir, `task-${task.id}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    job = parseJob(task.workflowPayload);
    run = createRun(task, job, root, opts.runnerName, masker, new Reporter(sink, task.id, job.steps.length, masker));
  } catch (err) {
    // the server must still hear the end, or the job stays running until a zombie check
    const reporter = new Reporter(sink, task.id, 0, masker);
    reporter.log(`##[error]cannot start the job: ${(err as Error).message}`);
    await reporter.finish('failure');
    fs.rmSync(root, { recursive: true, force: true });
    return 'failure';
  }
  const cancel = armCancellation(run, opts.signal);
  let result: StepResult;
  try {
    result = await runJob(run, cancel);
  } catch (err) {
    run.reporter.log(`##[error]${(err as Error).message}`);
    result = run.isCancelled() ? 'cancelled' : 'failure';
  } finally {
    run.groups.killAll();
    opts.signal?.removeEventListener('abort', cancel);
    if (!opts.keepWorkspace) fs.rmSync(root, { recursive: true, force: true });
  }
  if (run.isCancelled() && result !== 'failure') result = 'cancelled';
  run.reporter.log(`Job ${result === 'success' ? 'succeeded' : result === 'cancelled' ? 'was cancelled' : 'failed'}`);
  await run.reporter.finish(result);
  return result;
}

/**
 * A cancel (from the server's answer, or the runner stopping) aborts the running step; later
 * always()/cancelled() steps get a fresh signal each (rearm), bounded by CLEANUP_STEP_LIMIT_MS.
 */
function armCancellation(run: JobRun, stopping: AbortSignal | undefined): () => void {
  let controller = new AbortController();
  run.signal = controller.signal;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    controller.abort();
  };
  run.isCancelled = () => cancelled;
  run.rearm = () => {
    if (!controller.signal.aborted) return;
    controller = new AbortController();
    run.signal = controller.signal;
    const c = controller;
    setTimeout(() => c.abort(), CLEANUP_STEP_LIMIT_MS).unref();
  };
  stopping?.addEventListener('abort', cancel);
  if (stopping?.aborted) cancel();
  run.reporter.start(() => {
    if (cancelled) return;
    run.reporter.log('##[error]The run was canceled.');
    cancel();
  });
  return cancel;
}

function createRun(task: RunnerTask, job: JobDef, root: string, runnerName: string, masker: Masker, reporter: Reporter): JobRun {
  const dirs = {
    root,
    workspace: path.join(root, 'workspace'),
    temp: path.join(root, 'temp'),
    actions: path.join(root, 'actions'),
    toolCache: path.join(root, 'tool-cache'),
    eventPath: path.join(root, 'temp', 'event.json'),
  };
  for (const d of [dirs.workspace, dirs.temp, dirs.actions, dirs.toolCache]) fs.mkdirSync(d, { recursive: true });
  const github = { ...task.context };
  fs.writeFileSync(dirs.eventPath, JSON.stringify(github.event ?? {}));
  return {
    task, job, dirs, runnerName, masker, reporter,
    signal: new AbortController().signal,
    groups: new ProcessGroups(),
    github,
    baseEnv: { ...hostEnv(), ...githubEnv(github, dirs, job.jobId, runnerName) },
    env: {},
    paths: [],
    actionCache: new Map(),
    isCancelled: () => false,
    rearm: () => undefined,
  };
}

async function runJob(run: JobRun, cancel: () => void): Promise<StepResult> {
  const { job, reporter } = run;
  const event = run.github.event;
  const inputs = event && typeof event === 'object' ? (event as Record<string, unknown>).inputs : undefined;
  const scope: StepScope = {
    steps: {}, inputs: inputs && typeof inputs === 'object' ? (inputs as Record<string, unknown>) : {},
    env: {}, failed: false, actionPath: '', action: '',
  };
  reporter.log(`hearth runner ${run.runnerName}: job ${job.name} (task ${run.task.id})`);
  // workflow env, then job env, each interpolated with what is defined before it
  Object.assign(run.env, interpolateEnv(job.env, exprContext(run, scope)));
  Object.assign(run.env, interpolateEnv(job.jobEnv, exprContext(run, scope)));
  const minutes = Number(evalValue(job.timeoutMinutes ?? DEFAULT_JOB_TIMEOUT_MIN, exprContext(run, scope)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reporter.log(`##[error]The job has exceeded the maximum execution time of ${minutes} minutes.`);
    cancel();
  }, (minutes > 0 ? minutes : DEFAULT_JOB_TIMEOUT_MIN) * 60_000);
  timer.unref();
  try {
    for (let i = 0; i < job.steps.length; i++) {
      const step = job.steps[i]!;
      reporter.stepStarted(i);
      run.rearm();
      const o = await runStep(run, scope, step);
      reporter.stepFinished(i, o.outcome === 'failure' && o.conclusion === 'success' ? 'success' : o.outcome);
    }
  } finally {
    clearTimeout(timer);
  }
  setJobOutputs(run, scope);
  if (timedOut) return 'failure';
  if (run.isCancelled()) return 'cancelled';
  return scope.failed ? 'failure' : 'success';
}

function setJobOutputs(run: JobRun, scope: StepScope): void {
  const ctx = exprContext(run, scope);
  for (const [key, raw] of Object.entries(run.job.outputs)) {
    try {
      run.reporter.setOutput(key, interpolate(toStr(raw), ctx));
    } catch (err) {
      run.reporter.log(`##[error]job output ${key}: ${(err as Error).message}`);
    }
  }
}
