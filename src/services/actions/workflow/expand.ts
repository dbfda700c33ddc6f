import { evaluate, interpolate, singleExpression, type ExprContext } from '../../../lib/actions-expr';
import { yaml } from '../../../lib/lazy-require';
import { isMapping } from '../../../lib/yaml';
import { WorkflowSyntaxError } from './events';
import { matrixCombinations, matrixSuffix, type Combination } from './matrix';
import { needsOf, type RawJob, type Workflow } from './parse';

// Job expansion as Gitea's jobparser.Parse: one job per matrix combination, each with the
// single-job workflow the runner receives (`workflow_payload`): the workflow's name, on, env,
// defaults and only that job, its matrix fixed to the combination (`matrix: {k: [v]}`), its
// name suffixed with the values (`build (linux, 20)`) unless the name uses an expression, and
// runs-on interpolated with the matrix.

export type ExpandedJob = {
  jobId: string;
  name: string;
  needs: string[];
  runsOn: string[];
  ifExpr: string | null;
  matrix: Combination | null;
  timeoutMinutes: number | null;
  continueOnError: boolean;
  payload: string;
  /** The job's `concurrency:` as written: evaluated once its needs are done (run-state.ts). */
  concurrency: unknown;
  /** strategy.max-parallel of a matrix job; 0 for no limit. */
  maxParallel: number;
};

/** What expressions read while planning (github, vars, inputs); others are the runner's. */
export type PlanContext = ExprContext;


// Gitea's jobparser.Job field order; anything else of the job is dropped, as Go's decoding drops it.
const JOB_KEYS = [
  'name', 'needs', 'runs-on', 'env', 'if', 'steps', 'timeout-minutes', 'continue-on-error', 'services', 'strategy',
  'container', 'defaults', 'outputs', 'uses', 'with', 'secrets', 'concurrency', 'permissions', 'environment',
];

function interp(value: string, ctx: PlanContext, where: string): string {
  try {
    return interpolate(value, ctx);
  } catch (err) {
    throw new WorkflowSyntaxError(`${where}: ${(err as Error).message}`);
  }
}

/** A value that may be one `${{ }}` keeps the expression's type (a matrix from fromJSON). */
function evalValue(value: unknown, ctx: PlanContext, where: string): unknown {
  if (typeof value !== 'string') return value;
  const expr = singleExpression(value);
  if (expr === null) return value.includes('${{') ? interp(value, ctx, where) : value;
  try {
    return evaluate(expr, ctx);
  } catch (err) {
    throw new WorkflowSyntaxError(`${where}: ${(err as Error).message}`);
  }
}

/** runs-on: a label, a list of labels, or {group, labels}; interpolated with the matrix. */
export function runsOnOf(raw: unknown, ctx: PlanContext, jobId: string): string[] {
  const value = evalValue(raw, ctx, `runs-on of job "${jobId}"`);
  const list = isMapping(value) ? value.labels : value;
  if (list === undefined || list === null) return [];
  const labels = Array.isArray(list) ? list : [list];
  return labels.map((l) => interp(String(l), ctx, `runs-on of job "${jobId}"`)).filter((l) => l !== '');
}

function matrixOf(raw: RawJob, ctx: PlanContext, jobId: string): Combination[] {
  const strategy = evalValue(raw.strategy, ctx, `strategy of job "${jobId}"`);
  if (strategy === undefined || strategy === null) return [];
  if (!isMapping(strategy)) throw new WorkflowSyntaxError(`strategy of job "${jobId}" must be a map`);
  let matrix = evalValue(strategy.matrix, ctx, `matrix of job "${jobId}"`);
  if (isMapping(matrix)) {
    matrix = Object.fromEntries(Object.entries(matrix).map(([k, v]) => [k, evalValue(v, ctx, `matrix of job "${jobId}"`)]));
  }
  return matrixCombinations(matrix);
}

function intOf(raw: unknown, ctx: PlanContext, where: string): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const v = evalValue(raw, ctx, where);
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isFinite(n) || n < 0) throw new WorkflowSyntaxError(`${where} must be a number`);
  return Math.floor(n);
}

function boolOf(raw: unknown, ctx: PlanContext, where: string): boolean {
  if (raw === undefined || raw === null) return false;
  const v = evalValue(raw, ctx, where);
  return v === true || String(v).toLowerCase() === 'true';
}

function maxParallelOf(raw: RawJob, ctx: PlanContext, jobId: string): number {
  const strategy = isMapping(raw.strategy) ? raw.strategy : {};
  return intOf(strategy['max-parallel'], ctx, `max-parallel of job "${jobId}"`) ?? 0;
}

function jobName(raw: RawJob, jobId: string, combo: Combination | null, ctx: PlanContext): string {
  const given = raw.name === undefined || raw.name === null ? '' : String(raw.name).trim();
  if (given.includes('${{') && given.includes('}}')) {
    const name = interp(given, ctx, `name of job "${jobId}"`).trim();
    return name || jobId;
  }
  return (given || jobId) + (combo ? matrixSuffix(combo) : '');
}

function payloadOf(wf: Workflow, jobId: string, job: RawJob): string {
  const top: Record<string, unknown> = {};
  if (wf.name) top.name = wf.name;
  if (wf.rawOn !== undefined) top.on = wf.rawOn;
  if (wf.env !== undefined && wf.env !== null) top.env = wf.env;
  top.jobs = { [jobId]: job };
  if (wf.defaults !== undefined && wf.defaults !== null) top.defaults = wf.defaults;
  if (wf.permissions !== undefined && wf.permissions !== null) top.permissions = wf.permissions;
  if (wf.runName) top['run-name'] = wf.runName;
  return yaml().stringify(top, { indent: 2, lineWidth: 0, aliasDuplicateObjects: false });
}

function expandOne(wf: Workflow, jobId: string, raw: RawJob, combo: Combination | null, ctx: PlanContext): ExpandedJob {
  const mctx = combo ? { ...ctx, matrix: combo } : { ...ctx, matrix: {} };
  const name = jobName(raw, jobId, combo, mctx);
  const runsOn = runsOnOf(raw['runs-on'], mctx, jobId);
  const job: Record<string, unknown> = {};
  for (const key of JOB_KEYS) {
    if (key === 'name') job.name = name;
    else if (key === 'runs-on') { if (raw['runs-on'] !== undefined) job['runs-on'] = runsOn.length === 1 ? runsOn[0] : runsOn; }
    else if (key === 'strategy') {
      const s = isMapping(raw.strategy) ? { ...raw.strategy } : {};
      delete s.matrix;
      if (combo) s.matrix = Object.fromEntries(Object.entries(combo).map(([k, v]) => [k, [v]]));
      if (Object.keys(s).length) job.strategy = s;
    } else if (raw[key] !== undefined && raw[key] !== null) job[key] = raw[key];
  }
  const ifRaw = raw.if;
  return {
    jobId, name, needs: needsOf(raw), runsOn,
    ifExpr: ifRaw === undefined || ifRaw === null || ifRaw === '' ? null : String(ifRaw),
    matrix: combo,
    timeoutMinutes: intOf(raw['timeout-minutes'], mctx, `timeout-minutes of job "${jobId}"`),
    continueOnError: boolOf(raw['continue-on-error'], mctx, `continue-on-error of job "${jobId}"`),
    payload: payloadOf(wf, jobId, job),
    concurrency: raw.concurrency ?? null,
    maxParallel: combo ? maxParallelOf(raw, mctx, jobId) : 0,
  };
}

/** Every job of the workflow, matrices expanded, in file order; throws WorkflowSyntaxError. */
export function expandJobs(wf: Workflow, ctx: PlanContext): ExpandedJob[] {
  const out: ExpandedJob[] = [];
  for (const { id, raw } of wf.jobs) {
    const combos = matrixOf(raw, ctx, id);
    if (!combos.length) out.push(expandOne(wf, id, raw, null, ctx));
    for (const combo of combos) out.push(expandOne(wf, id, raw, combo, ctx));
  }
  return out;
}

/** The run's title: `run-name` interpolated, or '' (the caller falls back to the commit). */
export function runNameOf(wf: Workflow, ctx: PlanContext): string {
  return wf.runName ? interp(wf.runName, ctx, 'run-name').trim() : '';
}

export type Concurrency = { group: string; cancelInProgress: boolean };

/** The workflow-level `concurrency`: a group name, or {group, cancel-in-progress}; expressions over github, vars, inputs. */
export function concurrencyOf(raw: unknown, ctx: PlanContext): Concurrency | null {
  if (raw === undefined || raw === null) return null;
  if (isMapping(raw)) {
    const group = raw.group === undefined || raw.group === null ? '' : interp(String(raw.group), ctx, 'concurrency group').trim();
    if (!group) return null;
    return { group, cancelInProgress: boolOf(raw['cancel-in-progress'], ctx, 'concurrency cancel-in-progress') };
  }
  const group = interp(String(raw), ctx, 'concurrency group').trim();
  return group ? { group, cancelInProgress: false } : null;
}
