import { isMapping } from '../../../lib/yaml';

// The `on:` of a workflow, as Gitea's jobparser.ParseRawOn: a string, a list of strings, or a
// map of event names to nothing, a list (schedule), or a map of filters ("acts": each a string
// or a list of strings) and, for workflow_dispatch, typed inputs.

export type DispatchInput = {
  name: string; description: string; required: boolean; default: string; type: string; options: string[];
};

export type WorkflowEvent = {
  name: string;
  /** Filters by name (branches, paths, types...), each a list of patterns. */
  acts: Record<string, string[]>;
  /** `schedule`: the cron specs. */
  schedules: string[];
  inputs: DispatchInput[];
};

export class WorkflowSyntaxError extends Error {}

const event = (name: string): WorkflowEvent => ({ name, acts: {}, schedules: [], inputs: [] });
const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function parseInputs(raw: unknown): DispatchInput[] {
  if (raw === null || raw === undefined) return [];
  if (!isMapping(raw)) throw new WorkflowSyntaxError('workflow_dispatch inputs must be a map');
  return Object.entries(raw).map(([name, def]) => {
    if (def !== null && !isMapping(def)) throw new WorkflowSyntaxError(`input "${name}" must be a map`);
    const d = def ?? {};
    const options = Array.isArray(d.options) ? d.options.map(String) : [];
    return {
      name, description: d.description == null ? '' : String(d.description), required: d.required === true,
      default: d.default == null ? '' : String(d.default), type: d.type == null ? 'string' : String(d.type), options,
    };
  });
}

function parseSchedules(raw: unknown[]): string[] {
  return raw.map((item) => {
    if (!isMapping(item) || typeof item.cron !== 'string') throw new WorkflowSyntaxError('schedule entries must be maps with a cron string');
    return item.cron;
  });
}

function parseActs(name: string, raw: Record<string, unknown>): WorkflowEvent {
  const evt = event(name);
  for (const [act, value] of Object.entries(raw)) {
    if (name === 'workflow_dispatch' && act === 'inputs') evt.inputs = parseInputs(value);
    else if (Array.isArray(value)) {
      if (!value.every(scalar)) throw new WorkflowSyntaxError(`${name}.${act} must be a list of strings`);
      evt.acts[act] = value.map(String);
    } else if (scalar(value)) evt.acts[act] = [String(value)];
    else if (value === null) evt.acts[act] = [];
    else throw new WorkflowSyntaxError(`unknown on type: ${name}.${act}`);
  }
  return evt;
}

/** Parses `on:`; throws WorkflowSyntaxError when it is missing or malformed. */
export function parseOn(raw: unknown): WorkflowEvent[] {
  if (typeof raw === 'string') return [event(raw)];
  if (Array.isArray(raw)) {
    return raw.map((v) => {
      if (typeof v !== 'string') throw new WorkflowSyntaxError(`invalid type ${typeof v} in on`);
      return event(v);
    });
  }
  if (isMapping(raw)) {
    return Object.entries(raw).map(([name, value]) => {
      if (value === null || scalar(value)) return event(name);
      if (Array.isArray(value)) {
        const evt = event(name);
        if (name === 'schedule') evt.schedules = parseSchedules(value);
        return evt;
      }
      if (isMapping(value)) return parseActs(name, value);
      throw new WorkflowSyntaxError(`unknown on type for ${name}`);
    });
  }
  throw new WorkflowSyntaxError(raw === undefined ? 'the workflow has no "on"' : 'unknown on type');
}
