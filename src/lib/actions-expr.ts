// The GitHub Actions expression language: `${{ }}` in workflows, `if:` conditions. Semantics follow
// GitHub's documentation (and act, which runners implement): loose equality that coerces mismatched
// types to numbers, case-insensitive string comparison and property names, `&&`/`||` returning an
// operand, `.*` object filters. Used by the engine (job-level `if:`) and by hearth's runner.

import { callsStatusFunction, ExprError, parseExpr, type Node } from './actions-expr-parse';
import { callFunction, type ExprFunctions } from './actions-expr-functions';
import { compare, filtered, looseEquals, toNum, toStr, truthy } from './actions-expr-values';

export { ExprError } from './actions-expr-parse';
export type { ExprFunctions } from './actions-expr-functions';
export { looseEquals, toNum, toStr, truthy } from './actions-expr-values';

/** The named contexts (github, env, vars, secrets, inputs, matrix, needs, steps, job, runner...). */
export type ExprContext = Record<string, unknown> & { [EXPR_FUNCTIONS]?: ExprFunctions };

/** A context may carry its functions (the runner's hashFiles) under this key, unseen by expressions. */
export const EXPR_FUNCTIONS: unique symbol = Symbol('actions-expr functions');

const withCtxFns = (ctx: ExprContext, fns: ExprFunctions): ExprFunctions =>
  (ctx[EXPR_FUNCTIONS] ? { ...ctx[EXPR_FUNCTIONS], ...fns } : fns);

export interface JobStatus {
  success: boolean;
  failure: boolean;
  cancelled: boolean;
}

/** Evaluates one expression (the text inside `${{ }}`). Throws ExprError on a syntax error. */
export function evaluate(expr: string, ctx: ExprContext, fns: ExprFunctions = {}): unknown {
  return evalNode(parseExpr(expr), ctx, withCtxFns(ctx, fns));
}

/** Replaces every `${{ ... }}` in `text` with its value as a string. */
export function interpolate(text: string, ctx: ExprContext, fns: ExprFunctions = {}): string {
  if (!text.includes('${{')) return text;
  let out = '';
  let i = 0;
  for (;;) {
    const start = text.indexOf('${{', i);
    if (start < 0) return out + text.slice(i);
    const end = closingBraces(text, start + 3);
    if (end < 0) throw new ExprError(`Unclosed expression: '${text.slice(start)}'`);
    out += text.slice(i, start) + toStr(evaluate(text.slice(start + 3, end), ctx, fns));
    i = end + 2;
  }
}

/**
 * Evaluates an `if:` condition as GitHub does: with no status function in it, the condition means
 * `success() && (cond)`; an empty condition means `success()`. The condition may be wrapped in `${{ }}`.
 */
export function evalIf(cond: string, ctx: ExprContext, status: JobStatus, fns: ExprFunctions = {}): boolean {
  const expr = unwrap(cond === undefined || cond === null ? '' : String(cond));
  const withStatus: ExprFunctions = { ...withCtxFns(ctx, fns), status };
  const succeeded = status.success && !status.cancelled;
  if (expr === '') return succeeded;
  // text around an expression (`${{ a }} == b`) is a non-empty string, as on GitHub
  if (expr.includes('${{')) return succeeded && truthy(interpolate(expr, ctx, withStatus));
  const node = parseExpr(expr);
  if (!callsStatusFunction(node) && !succeeded) return false;
  return truthy(evalNode(node, ctx, withStatus));
}

/** Whether text is exactly one `${{ expr }}` (then its value keeps its type, e.g. a matrix list). */
export function singleExpression(text: string): string | null {
  const t = text.trim();
  if (!t.startsWith('${{')) return null;
  const end = closingBraces(t, 3);
  return end === t.length - 2 ? t.slice(3, end) : null;
}

function unwrap(cond: string): string {
  return singleExpression(cond) ?? cond.trim();
}

/** The index of the `}}` closing an expression that starts at `from`, skipping string literals. */
function closingBraces(text: string, from: number): number {
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'") inString = !inString; // a doubled '' toggles twice: still right
    else if (!inString && c === '}' && text[i + 1] === '}') return i;
  }
  return -1;
}

function evalNode(node: Node, ctx: ExprContext, fns: ExprFunctions): unknown {
  switch (node.type) {
    case 'literal': return node.value;
    case 'name': return lookup(ctx, node.name);
    case 'prop': return access(evalNode(node.object, ctx, fns), node.name);
    case 'index': return access(evalNode(node.object, ctx, fns), evalNode(node.index, ctx, fns));
    case 'star': return star(evalNode(node.object, ctx, fns));
    case 'not': return !truthy(evalNode(node.operand, ctx, fns));
    case 'call': return callFunction(node.name, node.args.map((a) => evalNode(a, ctx, fns)), fns);
    case 'binary': return binary(node, ctx, fns);
  }
}

function binary(node: Extract<Node, { type: 'binary' }>, ctx: ExprContext, fns: ExprFunctions): unknown {
  const left = evalNode(node.left, ctx, fns);
  if (node.op === '&&') return truthy(left) ? evalNode(node.right, ctx, fns) : left;
  if (node.op === '||') return truthy(left) ? left : evalNode(node.right, ctx, fns);
  const right = evalNode(node.right, ctx, fns);
  switch (node.op) {
    case '==': return looseEquals(left, right);
    case '!=': return !looseEquals(left, right);
    default: return compare(node.op, left, right);
  }
}

function lookup(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return null;
  const rec = obj as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(rec, key)) return rec[key] ?? null;
  const lower = key.toLowerCase();
  for (const k of Object.keys(rec)) if (k.toLowerCase() === lower) return rec[k] ?? null;
  return null;
}

function access(obj: unknown, key: unknown): unknown {
  if (Array.isArray(obj) && filtered.has(obj)) {
    // `needs.*.result`: a property of a filtered list applies to each element
    const out = obj.map((el) => access(el, key)).filter((v) => v !== null);
    filtered.add(out);
    return out;
  }
  if (Array.isArray(obj)) {
    if (typeof key === 'string' && !/^\s*\d+\s*$/.test(key)) return null;
    const n = toNum(key);
    return Number.isInteger(n) && n >= 0 && n < obj.length ? obj[n] ?? null : null;
  }
  return lookup(obj, toStr(key));
}

function star(obj: unknown): unknown[] {
  let out: unknown[] = [];
  if (Array.isArray(obj)) out = filtered.has(obj) ? obj.flatMap((el) => star(el)) : [...obj];
  else if (obj !== null && typeof obj === 'object') out = Object.values(obj);
  filtered.add(out);
  return out;
}
