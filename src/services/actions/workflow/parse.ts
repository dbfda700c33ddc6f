import { yaml } from '../../../lib/lazy-require';
import { isMapping } from '../../../lib/yaml';
import { parseOn, WorkflowSyntaxError, type WorkflowEvent } from './events';

// A workflow file read as Gitea reads it (act's model.ReadWorkflow, then jobparser): one YAML
// document with `on` and `jobs`. Anything that would stop a run from being planned (bad YAML, a
// job that is not a map, `needs` of a missing job, a cycle) is a WorkflowSyntaxError whose
// message becomes the failed run's workflow_error.

export { WorkflowSyntaxError } from './events';

export type RawJob = Record<string, unknown>;

export type Workflow = {
  /** `name:`, '' when absent (the file name stands in). */
  name: string;
  runName: string;
  rawOn: unknown;
  on: WorkflowEvent[];
  env: unknown;
  defaults: unknown;
  permissions: unknown;
  concurrency: unknown;
  /** Jobs in file order. */
  jobs: { id: string; raw: RawJob }[];
};

/** Parses YAML as Go's yaml.v3 would take a workflow: one document, merge keys, aliases resolved. */
export function readYaml(text: string): unknown {
  const docs = yaml().parseAllDocuments(text, { merge: true, uniqueKeys: true });
  if (!Array.isArray(docs)) throw new WorkflowSyntaxError('the workflow is empty');
  const doc = docs[0];
  if (!doc) throw new WorkflowSyntaxError('the workflow is empty');
  const err = doc.errors[0];
  if (err) throw new WorkflowSyntaxError(`yaml: ${err.message.split('\n')[0]}`);
  return doc.toJS({ maxAliasCount: 1000 });
}

function asMap(v: unknown, what: string): Record<string, unknown> {
  if (!isMapping(v)) throw new WorkflowSyntaxError(`${what} must be a map`);
  return v;
}

/** The `needs` of a raw job: a string or a list of strings. */
export function needsOf(raw: RawJob): string[] {
  const n = raw.needs;
  if (n === undefined || n === null) return [];
  if (typeof n === 'string') return [n];
  if (Array.isArray(n) && n.every((x) => typeof x === 'string')) return n as string[];
  throw new WorkflowSyntaxError('needs must be a string or a list of strings');
}

function checkNeeds(jobs: { id: string; raw: RawJob }[]): void {
  const needs = new Map(jobs.map((j) => [j.id, needsOf(j.raw)]));
  for (const [id, list] of needs) {
    for (const n of list) if (!needs.has(n)) throw new WorkflowSyntaxError(`job "${id}" needs job "${n}", which does not exist`);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') throw new WorkflowSyntaxError(`jobs have a cycle of needs: ${[...path, id].join(' -> ')}`);
    state.set(id, 'visiting');
    for (const n of needs.get(id) ?? []) visit(n, [...path, id]);
    state.set(id, 'done');
  };
  for (const id of needs.keys()) visit(id, []);
}

function readJobs(raw: unknown): { id: string; raw: RawJob }[] {
  if (raw === undefined || raw === null) throw new WorkflowSyntaxError('the workflow has no jobs');
  const map = asMap(raw, 'jobs');
  const jobs = Object.entries(map).map(([id, job]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(id)) throw new WorkflowSyntaxError(`invalid job id "${id}"`);
    if (job === null || job === undefined) throw new WorkflowSyntaxError(`job "${id}" is empty`);
    const j = asMap(job, `job "${id}"`);
    if (j.steps !== undefined && j.steps !== null && !Array.isArray(j.steps)) throw new WorkflowSyntaxError(`steps of job "${id}" must be a list`);
    if (j['runs-on'] === undefined && j.uses === undefined) throw new WorkflowSyntaxError(`job "${id}" has no runs-on`);
    return { id, raw: j };
  });
  if (!jobs.length) throw new WorkflowSyntaxError('the workflow has no jobs');
  checkNeeds(jobs);
  return jobs;
}

/** Reads a whole workflow; throws WorkflowSyntaxError. */
export function parseWorkflow(text: string): Workflow {
  const top = readYaml(text);
  if (top === null || top === undefined) throw new WorkflowSyntaxError('the workflow is empty');
  const doc = asMap(top, 'the workflow');
  const on = parseOn(doc.on);
  const jobs = readJobs(doc.jobs);
  const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return {
    name: str(doc.name), runName: str(doc['run-name']), rawOn: doc.on, on, env: doc.env, defaults: doc.defaults,
    permissions: doc.permissions, concurrency: doc.concurrency, jobs,
  };
}

/** Only the events of a workflow (detection ignores files whose `on` cannot be read, as Gitea). */
export function readEvents(text: string): WorkflowEvent[] {
  const top = readYaml(text);
  return parseOn(isMapping(top) ? top.on : undefined);
}
