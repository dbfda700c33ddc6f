// One step at any level (the job's, or a composite action's): `if:` with the status so far, env
// (job < step), continue-on-error, timeout-minutes, then a `run:` script or a `uses:` action.
// The steps context records outcome (what happened) and conclusion (after continue-on-error).

import path from 'node:path';
import { evalIf, interpolate, toStr, truthy, evaluate, singleExpression } from '../lib/actions-expr';
import { stepDisplayName, type StepDef } from './job';
import { runScript } from './run-script';
import { exprContext, jobStatus, type JobRun, type StepScope } from './scope';
import { runUses } from './uses';
import type { StepResult } from './types';

export interface StepOutcome {
  outcome: StepResult;
  conclusion: StepResult;
}

/** A value that may be a bare `${{ }}` keeps its type (`continue-on-error: ${{ matrix.experimental }}`). */
export function evalValue(raw: unknown, ctx: Record<string, unknown>): unknown {
  if (typeof raw !== 'string') return raw;
  const single = singleExpression(raw);
  return single !== null ? evaluate(single, ctx) : interpolate(raw, ctx);
}

export function interpolateEnv(values: Record<string, unknown>, ctx: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) out[k] = toStr(evalValue(v, ctx));
  return out;
}

export async function runStep(run: JobRun, scope: StepScope, step: StepDef): Promise<StepOutcome> {
  const name = stepDisplayName(step);
  let outcome: StepResult;
  let continueOnError = false;
  const outputs: Record<string, string> = {};
  try {
    const ctx = exprContext(run, scope);
    if (!evalIf(step.if ?? '', ctx, jobStatus(run, scope))) {
      return record(scope, step, { outcome: 'skipped', conclusion: 'skipped' }, outputs);
    }
    continueOnError = truthy(evalValue(step.continueOnError ?? false, ctx));
    const stepEnv = interpolateEnv(step.env, ctx);
    const minutes = Number(evalValue(step.timeoutMinutes ?? 0, ctx));
    const timeoutMs = minutes > 0 ? minutes * 60_000 : undefined;
    outcome = await dispatch(run, scope, step, stepEnv, timeoutMs, outputs);
  } catch (err) {
    run.reporter.log(`##[error]${name}: ${(err as Error).message}`);
    outcome = run.isCancelled() ? 'cancelled' : 'failure';
  }
  const conclusion = outcome === 'failure' && continueOnError ? 'success' : outcome;
  return record(scope, step, { outcome, conclusion }, outputs);
}

async function dispatch(
  run: JobRun, scope: StepScope, step: StepDef, stepEnv: Record<string, string>,
  timeoutMs: number | undefined, outputs: Record<string, string>,
): Promise<StepResult> {
  const ctx = exprContext(run, scope, stepEnv);
  if (step.run !== undefined && step.uses !== undefined) throw new Error('a step cannot have both `run` and `uses`');
  if (step.run !== undefined) {
    const shell = step.shell ?? run.job.defaultsRun.shell;
    const dir = step.workingDirectory ?? (scope.action ? undefined : run.job.defaultsRun.workingDirectory);
    const result = await runScript(run, {
      script: interpolate(step.run, ctx),
      shell: shell === undefined ? undefined : interpolate(shell, ctx),
      workingDirectory: path.resolve(run.dirs.workspace, dir ? interpolate(dir, ctx) : '.'),
      env: { ...run.baseEnv, ...run.env, ...scope.env, ...stepEnv },
      timeoutMs,
    });
    Object.assign(outputs, result.outputs);
    return result.ok ? 'success' : result.cancelled ? 'cancelled' : 'failure';
  }
  if (step.uses !== undefined) return runUses(run, scope, step, stepEnv, timeoutMs, outputs);
  throw new Error('a step needs `run` or `uses`');
}

function record(scope: StepScope, step: StepDef, o: StepOutcome, outputs: Record<string, string>): StepOutcome {
  if (step.id) scope.steps[step.id] = { outputs, outcome: o.outcome, conclusion: o.conclusion };
  if (o.conclusion === 'failure') scope.failed = true;
  return o;
}
