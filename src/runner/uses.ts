// `uses:` steps. actions/checkout is done natively (clone at the task's commit with the job
// token); other actions must live on this same instance (`owner/repo[/path]@ref`, or `./path` in
// the workspace): composite actions run their steps, node actions run `runs.main` with this
// runner's Node. Anything else fails the step with a message saying so.

import fs from 'node:fs';
import path from 'node:path';
import { parseYaml, isMapping } from '../lib/yaml';
import { interpolate, toStr } from '../lib/actions-expr';
import { inExecutable } from '../lib/sea-payload';
import { fetchAndCheckout } from './git';
import { parseStep, type StepDef } from './job';
import { runCommand } from './run-script';
import { exprContext, type JobRun, type StepScope } from './scope';
import { evalValue, runStep } from './steps';
import type { StepResult } from './types';
import { checkout } from './checkout';

interface ActionRef {
  owner: string;
  repo: string;
  subPath: string;
  ref: string;
}

export function parseUses(uses: string, serverUrl: string): ActionRef | { local: string } | { error: string } {
  if (uses.startsWith('./')) return { local: uses };
  if (uses.startsWith('docker://')) return { error: `docker actions are not supported by hearth's runner (it runs jobs on the host): ${uses}` };
  let spec = uses;
  const url = /^(https?:\/\/[^/]+)\/(.*)$/.exec(uses);
  if (url) {
    if (url[1]!.replace(/\/$/, '') !== new URL(serverUrl).origin) {
      return { error: `hearth's runner only runs actions hosted on this instance (${serverUrl}); mirror ${uses.split('@')[0]} here and use it as owner/repo@ref` };
    }
    spec = url[2]!;
  }
  const m = /^([^/@]+)\/([^/@]+)((?:\/[^@]+)?)@(.+)$/.exec(spec);
  if (!m) return { error: `invalid uses: '${uses}' (expected owner/repo@ref or owner/repo/path@ref)` };
  return { owner: m[1]!, repo: m[2]!, subPath: m[3]!.replace(/^\//, ''), ref: m[4]! };
}

export const isCheckout = (uses: string): boolean => /(^|\/)actions\/checkout@/.test(uses);

export async function runUses(
  run: JobRun, scope: StepScope, step: StepDef, stepEnv: Record<string, string>,
  timeoutMs: number | undefined, outputs: Record<string, string>,
): Promise<StepResult> {
  const uses = step.uses!;
  const ctx = exprContext(run, scope, stepEnv);
  const withValues: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.with)) withValues[k] = toStr(evalValue(v, ctx));
  if (isCheckout(uses)) return checkout(run, withValues);
  const serverUrl = toStr(run.github.server_url);
  const parsed = parseUses(uses, serverUrl);
  if ('error' in parsed) {
    run.reporter.log(`##[error]${parsed.error}`);
    return 'failure';
  }
  const dir = 'local' in parsed ? path.resolve(run.dirs.workspace, parsed.local) : await fetchAction(run, parsed, serverUrl);
  if (!dir) return 'failure';
  const action = readActionFile(dir);
  const inputs = actionInputs(action, withValues, ctx);
  const using = toStr(isMapping(action.runs) ? action.runs.using : '');
  if (using === 'composite') return runComposite(run, scope, action, dir, uses, inputs, stepEnv, outputs);
  if (/^node\d+$/.test(using)) return runNode(run, action, dir, uses, inputs, stepEnv, timeoutMs, outputs);
  run.reporter.log(`##[error]${uses}: actions using '${using}' are not supported by hearth's runner (composite and node actions are)`);
  return 'failure';
}

async function fetchAction(run: JobRun, a: ActionRef, serverUrl: string): Promise<string | null> {
  const key = `${a.owner}/${a.repo}@${a.ref}`;
  let root = run.actionCache.get(key);
  if (!root) {
    root = path.join(run.dirs.actions, `${a.owner}-${a.repo}-${run.actionCache.size}`);
    fs.mkdirSync(root, { recursive: true });
    const url = `${serverUrl.replace(/\/$/, '')}/${a.owner}/${a.repo}.git`;
    const token = toStr(run.github.token) || run.task.secrets.GITHUB_TOKEN || '';
    try {
      await fetchAndCheckout(root, url, a.ref, { username: 'x-access-token', password: token }, 1, run.signal);
    } catch {
      try {
        // the job token opens only the task's repository: a public action needs none
        fs.rmSync(root, { recursive: true, force: true });
        fs.mkdirSync(root, { recursive: true });
        await fetchAndCheckout(root, url, a.ref, null, 1, run.signal);
      } catch (err) {
        run.reporter.log(`##[error]cannot fetch action ${key} from ${serverUrl}: ${(err as Error).message}`);
        return null;
      }
    }
    run.actionCache.set(key, root);
  }
  return path.join(root, a.subPath);
}

function readActionFile(dir: string): Record<string, unknown> {
  for (const name of ['action.yml', 'action.yaml']) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) {
      const doc = parseYaml(fs.readFileSync(file, 'utf8'));
      if (!isMapping(doc)) throw new Error(`${name} is not a mapping`);
      return doc;
    }
  }
  throw new Error(`no action.yml or action.yaml in ${path.basename(dir)}`);
}

function actionInputs(action: Record<string, unknown>, given: Record<string, string>, ctx: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const declared = isMapping(action.inputs) ? action.inputs : {};
  for (const [name, def] of Object.entries(declared)) {
    const dflt = isMapping(def) && def.default !== undefined ? toStr(evalValue(def.default, ctx)) : '';
    out[name] = given[name] ?? dflt;
  }
  for (const [k, v] of Object.entries(given)) out[k] ??= v;
  return out;
}

const inputEnv = (inputs: Record<string, string>) =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, '_').toUpperCase()}`, v]));

async function runComposite(
  run: JobRun, outer: StepScope, action: Record<string, unknown>, dir: string, uses: string,
  inputs: Record<string, string>, stepEnv: Record<string, string>, outputs: Record<string, string>,
): Promise<StepResult> {
  const runs = action.runs as Record<string, unknown>;
  const steps = Array.isArray(runs.steps) ? runs.steps.map(parseStep) : [];
  const scope: StepScope = {
    steps: {}, inputs, env: { ...outer.env, ...stepEnv, GITHUB_ACTION_PATH: dir }, failed: false, actionPath: dir, action: uses,
  };
  let cancelled = false;
  for (const inner of steps) {
    if (inner.run !== undefined && inner.shell === undefined) inner.shell = 'bash';
    const o = await runStep(run, scope, inner);
    if (o.outcome === 'cancelled') cancelled = true;
  }
  const declared = isMapping(action.outputs) ? action.outputs : {};
  const ctx = exprContext(run, scope);
  for (const [k, def] of Object.entries(declared)) {
    if (isMapping(def) && def.value !== undefined) outputs[k] = interpolate(toStr(def.value), ctx);
  }
  return cancelled ? 'cancelled' : scope.failed ? 'failure' : 'success';
}

async function runNode(
  run: JobRun, action: Record<string, unknown>, dir: string, uses: string, inputs: Record<string, string>,
  stepEnv: Record<string, string>, timeoutMs: number | undefined, outputs: Record<string, string>,
): Promise<StepResult> {
  const main = toStr((action.runs as Record<string, unknown>).main);
  if (!main) {
    run.reporter.log(`##[error]${uses}: runs.main is missing in action.yml`);
    return 'failure';
  }
  const file = path.join(dir, main);
  // inside the single executable, execPath is hearth itself: it runs the file through `runner node`
  const [command, args] = inExecutable() ? [process.execPath, ['runner', 'node', file]] : [process.execPath, [file]];
  const result = await runCommand(run, {
    command, args, cwd: run.dirs.workspace, timeoutMs,
    env: { ...run.baseEnv, ...run.env, ...stepEnv, ...inputEnv(inputs), GITHUB_ACTION_PATH: dir, GITHUB_ACTION_REPOSITORY: uses.split('@')[0]!, GITHUB_ACTION_REF: uses.split('@')[1] ?? '' },
  });
  Object.assign(outputs, result.outputs);
  return result.ok ? 'success' : result.cancelled ? 'cancelled' : 'failure';
}
