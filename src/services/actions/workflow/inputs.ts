import type { DispatchInput } from './events';

// workflow_dispatch inputs checked against the workflow's declarations (string, boolean,
// choice, number, environment): unknown names, missing required values, a non-boolean
// boolean, a non-number number and a choice outside its options are refused.

export class InputError extends Error {}

export type CheckedInputs = {
  /** As given or defaulted, strings (github.event.inputs). */
  raw: Record<string, string>;
  /** Typed (the `inputs` context): booleans and numbers as such. */
  typed: Record<string, string | number | boolean>;
};

function checkOne(def: DispatchInput, given: string | undefined): [string, string | number | boolean] {
  const value = given ?? def.default;
  if (def.required && value === '') throw new InputError(`input "${def.name}" is required`);
  switch (def.type) {
    case 'boolean': {
      const v = value === '' ? 'false' : value.toLowerCase();
      if (v !== 'true' && v !== 'false') throw new InputError(`input "${def.name}" must be true or false`);
      return [v, v === 'true'];
    }
    case 'number': {
      if (value === '') return ['', ''];
      const n = Number(value);
      if (!Number.isFinite(n) || value.trim() === '') throw new InputError(`input "${def.name}" must be a number`);
      return [value, n];
    }
    case 'choice':
      if (value !== '' && !def.options.includes(value)) {
        throw new InputError(`input "${def.name}" must be one of: ${def.options.join(', ')}`);
      }
      return [value, value];
    case 'string': case 'environment':
      return [value, value];
    default:
      throw new InputError(`input "${def.name}" has an unknown type "${def.type}"`);
  }
}

/** Checks and fills the inputs; throws InputError. */
export function checkInputs(defs: DispatchInput[], given: Record<string, unknown>): CheckedInputs {
  const known = new Set(defs.map((d) => d.name));
  const unknown = Object.keys(given).filter((k) => !known.has(k));
  if (unknown.length) throw new InputError(`unexpected inputs: ${unknown.join(', ')}`);
  const raw: Record<string, string> = {};
  const typed: Record<string, string | number | boolean> = {};
  for (const def of defs) {
    const g = given[def.name];
    const [r, t] = checkOne(def, g === undefined || g === null ? undefined : String(g));
    raw[def.name] = r;
    typed[def.name] = t;
  }
  return { raw, typed };
}
