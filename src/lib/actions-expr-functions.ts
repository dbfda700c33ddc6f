// The built-in functions of the Actions expression language. Names are case-insensitive, as GitHub's.

import { ExprError } from './actions-expr-parse';
import { looseEquals, toStr } from './actions-expr-values';

/** What the caller supplies beyond the contexts: the job status, and hashFiles on the runner. */
export interface ExprFunctions {
  status?: { success: boolean; failure: boolean; cancelled: boolean };
  hashFiles?: (patterns: string[]) => string;
}

type Fn = (args: unknown[], fns: ExprFunctions) => unknown;

const FUNCTIONS: Record<string, { min: number; max: number; fn: Fn }> = {
  contains: { min: 2, max: 2, fn: ([search, item]) => contains(search, item) },
  startswith: { min: 2, max: 2, fn: ([a, b]) => toStr(a).toUpperCase().startsWith(toStr(b).toUpperCase()) },
  endswith: { min: 2, max: 2, fn: ([a, b]) => toStr(a).toUpperCase().endsWith(toStr(b).toUpperCase()) },
  format: { min: 1, max: Infinity, fn: ([f, ...rest]) => format(toStr(f), rest) },
  join: { min: 1, max: 2, fn: ([a, sep]) => join(a, sep) },
  tojson: { min: 1, max: 1, fn: ([v]) => JSON.stringify(v ?? null, null, 2) },
  fromjson: { min: 1, max: 1, fn: ([v]) => fromJson(toStr(v)) },
  hashfiles: { min: 1, max: Infinity, fn: (args, fns) => hashFiles(args, fns) },
  success: { min: 0, max: 0, fn: (_a, { status }) => !status || (status.success && !status.cancelled) },
  failure: { min: 0, max: 0, fn: (_a, { status }) => !!status && status.failure && !status.cancelled },
  always: { min: 0, max: 0, fn: () => true },
  cancelled: { min: 0, max: 0, fn: (_a, { status }) => !!status && status.cancelled },
};

export function callFunction(name: string, args: unknown[], fns: ExprFunctions): unknown {
  const def = FUNCTIONS[name.toLowerCase()];
  if (!def) throw new ExprError(`Unrecognized function: '${name}'`);
  if (args.length < def.min || args.length > def.max) {
    throw new ExprError(`Wrong number of arguments to ${name}(): ${args.length}`);
  }
  return def.fn(args, fns);
}

function contains(search: unknown, item: unknown): boolean {
  if (Array.isArray(search)) return search.some((el) => looseEquals(el, item));
  return toStr(search).toUpperCase().includes(toStr(item).toUpperCase());
}

function join(value: unknown, sep: unknown): string {
  const separator = sep === undefined ? ',' : toStr(sep);
  if (Array.isArray(value)) return value.map(toStr).join(separator);
  return toStr(value);
}

/** format('{0} and {1}', a, b); `{{` and `}}` are literal braces. */
function format(f: string, args: unknown[]): string {
  let out = '';
  for (let i = 0; i < f.length; i++) {
    const c = f[i];
    if (c === '{' && f[i + 1] === '{') { out += '{'; i++; continue; }
    if (c === '}' && f[i + 1] === '}') { out += '}'; i++; continue; }
    if (c === '}') throw new ExprError(`The following format string is invalid: '${f}'`);
    if (c !== '{') { out += c; continue; }
    const close = f.indexOf('}', i);
    const index = close < 0 ? NaN : Number(f.slice(i + 1, close));
    if (!Number.isInteger(index) || index < 0 || f.slice(i + 1, close).trim() === '') {
      throw new ExprError(`The following format string is invalid: '${f}'`);
    }
    if (index >= args.length) {
      throw new ExprError(`The following format string references more arguments than were supplied: '${f}'`);
    }
    out += toStr(args[index]);
    i = close;
  }
  return out;
}

function fromJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ExprError(`Error parsing fromJSON: ${(e as Error).message}`);
  }
}

function hashFiles(args: unknown[], fns: ExprFunctions): string {
  if (!fns.hashFiles) throw new ExprError('hashFiles() is only available on the runner');
  return fns.hashFiles(args.map(toStr));
}
