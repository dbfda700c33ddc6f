// The single-job workflow a task carries (Gitea's jobparser output: name, on, env, defaults and
// one job), read into the few shapes the executor uses. Values stay raw: expressions in them are
// interpolated when a step runs, with the contexts of that moment.

import { parseYaml, isMapping } from '../lib/yaml';

export interface StepDef {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  workingDirectory?: string;
  env: Record<string, unknown>;
  with: Record<string, unknown>;
  continueOnError?: unknown;
  timeoutMinutes?: unknown;
}

export interface JobDef {
  jobId: string;
  name: string;
  workflowName: string;
  env: Record<string, unknown>;
  jobEnv: Record<string, unknown>;
  defaultsRun: { shell?: string; workingDirectory?: string };
  matrix: Record<string, unknown>;
  outputs: Record<string, unknown>;
  timeoutMinutes?: unknown;
  continueOnError?: unknown;
  steps: StepDef[];
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
const map = (v: unknown): Record<string, unknown> => (isMapping(v) ? v : {});

export function parseStep(raw: unknown): StepDef {
  const s = map(raw);
  return {
    id: str(s.id),
    name: str(s.name),
    if: s.if === undefined ? undefined : String(s.if),
    uses: str(s.uses),
    run: str(s.run),
    shell: str(s.shell),
    workingDirectory: str(s['working-directory']),
    env: map(s.env),
    with: map(s.with),
    continueOnError: s['continue-on-error'],
    timeoutMinutes: s['timeout-minutes'],
  };
}

/** Parses the task's workflow payload; throws with a readable message when it is not one job. */
export function parseJob(payload: string): JobDef {
  const doc = map(parseYaml(payload));
  const jobs = map(doc.jobs);
  const ids = Object.keys(jobs);
  if (ids.length !== 1) throw new Error(`the task's workflow has ${ids.length} jobs, expected exactly one`);
  const jobId = ids[0]!;
  const job = map(jobs[jobId]);
  const steps = Array.isArray(job.steps) ? job.steps.map(parseStep) : [];
  return {
    jobId,
    name: str(job.name) ?? jobId,
    workflowName: str(doc.name) ?? '',
    env: map(doc.env),
    jobEnv: map(job.env),
    defaultsRun: mergeDefaults(map(map(doc.defaults).run), map(map(job.defaults).run)),
    matrix: matrixOf(map(map(job.strategy).matrix)),
    outputs: map(job.outputs),
    timeoutMinutes: job['timeout-minutes'],
    continueOnError: job['continue-on-error'],
    steps,
  };
}

function mergeDefaults(wf: Record<string, unknown>, job: Record<string, unknown>) {
  return {
    shell: str(job.shell) ?? str(wf.shell),
    workingDirectory: str(job['working-directory']) ?? str(wf['working-directory']),
  };
}

/** jobparser writes the job's matrix combination as one-element lists: unwrap them. */
function matrixOf(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (k === 'include' || k === 'exclude') continue;
    out[k] = Array.isArray(v) && v.length === 1 ? v[0] : v;
  }
  return out;
}

/** The display name of a step, as jobparser/act name it. */
export function stepDisplayName(step: StepDef): string {
  if (step.name) return step.name;
  if (step.uses) return `Run ${step.uses}`;
  if (step.run) return `Run ${step.run.split('\n')[0]!.trim()}`;
  return 'Step';
}
