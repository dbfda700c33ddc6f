// The state one job shares across its steps (JobRun) and the state of one level of steps (the
// job's own, or a composite action's inner steps: StepScope), and the expression contexts built
// from both.

import { EXPR_FUNCTIONS, type ExprContext, type JobStatus } from '../lib/actions-expr';
import { hashFiles } from './hash-files';
import type { JobDef } from './job';
import type { Masker } from './masker';
import type { ProcessGroups } from './process';
import type { Reporter } from './reporter';
import type { RunnerDirs, StepContext } from './contexts';
import type { RunnerTask } from './types';

export interface JobRun {
  task: RunnerTask;
  job: JobDef;
  dirs: RunnerDirs & { root: string; actions: string };
  runnerName: string;
  masker: Masker;
  reporter: Reporter;
  /** Aborted when the job is cancelled or times out. */
  signal: AbortSignal;
  groups: ProcessGroups;
  github: Record<string, unknown>;
  /** Host and GITHUB_* variables. */
  baseEnv: Record<string, string>;
  /** Workflow and job `env`, then what steps added through GITHUB_ENV. */
  env: Record<string, string>;
  /** Directories steps added through GITHUB_PATH, most recent first. */
  paths: string[];
  /** Cloned actions by `owner/repo@ref`. */
  actionCache: Map<string, string>;
  isCancelled(): boolean;
  /** After a cancel, gives the next step (an always() cleanup) a signal of its own. */
  rearm(): void;
}

export interface StepScope {
  steps: Record<string, StepContext>;
  inputs: Record<string, unknown>;
  /** Extra env at this level (a composite action's step env). */
  env: Record<string, string>;
  failed: boolean;
  actionPath: string;
  /** The action being run (github.action). */
  action: string;
}

export function jobStatus(run: JobRun, scope: StepScope): JobStatus {
  const cancelled = run.isCancelled();
  return { success: !scope.failed && !cancelled, failure: scope.failed, cancelled };
}

export function exprContext(run: JobRun, scope: StepScope, extraEnv: Record<string, string> = {}): ExprContext {
  const github = {
    ...run.github,
    workspace: run.dirs.workspace,
    job: run.job.jobId,
    action: scope.action,
    action_path: scope.actionPath,
  };
  const status = scope.failed ? 'failure' : run.isCancelled() ? 'cancelled' : 'success';
  return {
    github,
    gitea: github,
    env: { ...run.env, ...scope.env, ...extraEnv },
    vars: run.task.vars,
    secrets: run.task.secrets,
    inputs: scope.inputs,
    matrix: run.job.matrix,
    needs: run.task.needs,
    steps: scope.steps,
    job: { status, container: {}, services: {} },
    runner: {
      name: run.runnerName, os: 'Linux', arch: run.baseEnv.RUNNER_ARCH, temp: run.dirs.temp,
      tool_cache: run.dirs.toolCache, debug: '',
    },
    strategy: { 'fail-fast': true, 'job-index': 0, 'job-total': 1, 'max-parallel': 1 },
    [EXPR_FUNCTIONS]: { hashFiles: (patterns: string[]) => hashFiles(run.dirs.workspace, patterns) },
  };
}
