import type { RequestHandler } from 'express';
import type * as z from 'zod';

// Gitea binds an API option from a JSON body with Go's decoder, which takes a field whose name
// matches the struct's tag exactly, else one that matches it ignoring case ({"Do":"merge"} is
// `do`); and from a form body (urlencoded, or multipart beside an upload), whose values are
// text read as the field's type. This file brings both to the shape the request schemas
// expect, before they validate: one place for every body the API reads.

/** Marks a body that came from a form: its values are text (or lists of text) to be typed. */
const FORM = Symbol('form body');

/** Remembers that a body's values are form text (a multipart upload's other fields). */
export function markForm(body: unknown): void {
  if (body && typeof body === 'object' && !Object.prototype.hasOwnProperty.call(body, FORM)) {
    // Enumerable, so that a copy by spread (`{ ...req.body }`) keeps it; JSON and Object.keys skip symbols.
    Object.defineProperty(body, FORM, { value: true, enumerable: true });
  }
}

/** After the urlencoded parser: its body's values are form text. */
export const markFormBody: RequestHandler = (req, _res, next) => {
  if (req.is('application/x-www-form-urlencoded')) markForm(req.body);
  next();
};

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType>; options?: z.ZodType[] };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional, nullable, default, pipe and their kin. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 16; i++) {
    const def = defOf(s);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return s;
    s = inner;
  }
  return s;
}

/** Which plain kind a form value should become: number, boolean, a list, or left as text. */
function formKind(schema: z.ZodType): 'number' | 'boolean' | 'array' | 'text' {
  const def = defOf(unwrap(schema));
  if (def.type === 'number' || def.type === 'int' || def.type === 'bigint') return 'number';
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'array') return 'array';
  if (def.type === 'union') {
    const kinds = new Set((def.options ?? []).map((o) => defOf(unwrap(o)).type));
    // Numeric text reads as the number (an id); other text stays text for the union to take.
    if (kinds.has('number') || kinds.has('int')) return 'number';
    if (kinds.has('string') || kinds.has('literal') || kinds.has('enum')) return 'text';
    if (kinds.has('boolean')) return 'boolean';
  }
  return 'text';
}

const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True', 'on']);
const FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False', 'off']);

/** One form value typed as `schema` asks; text that does not read as the type stays text (the schema then refuses it). */
function formValue(schema: z.ZodType, raw: unknown): unknown {
  const kind = formKind(schema);
  const list = Array.isArray(raw) ? raw : [raw];
  if (kind === 'array') {
    const element = defOf(unwrap(schema)).element;
    return element ? list.map((v) => formValue(element, v)) : list;
  }
  const text = list[list.length - 1];
  if (typeof text !== 'string') return text;
  if (kind === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text === '' ? undefined : text;
  if (kind === 'boolean') return TRUE.has(text) ? true : FALSE.has(text) ? false : text === '' ? undefined : text;
  return text;
}

/** An object's keys renamed to the schema's where they match it ignoring case (an exact match wins). */
function bindObject(shape: Record<string, z.ZodType>, value: Record<string, unknown>, form: boolean): Record<string, unknown> {
  const byLower = new Map<string, string>();
  for (const key of Object.keys(shape)) if (!byLower.has(key.toLowerCase())) byLower.set(key.toLowerCase(), key);
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  // Exact names first, so that a differently cased duplicate never overwrites them.
  for (const key of [...keys.filter((k) => k in shape), ...keys.filter((k) => !(k in shape))]) {
    const target = key in shape ? key : byLower.get(key.toLowerCase());
    if (!target) {
      out[key] = value[key];
      continue;
    }
    if (target in out) continue;
    const bound = form ? formValue(shape[target]!, value[key]) : bind(shape[target]!, value[key], false);
    if (bound !== undefined) out[target] = bound;
  }
  return out;
}

/** `value` shaped for `schema`: field names matched as Go matches them, form text typed. */
export function bind(schema: z.ZodType, value: unknown, form = isFormBody(value)): unknown {
  if (value === null || typeof value !== 'object') return value;
  const def = defOf(unwrap(schema));
  if (def.type === 'object' && def.shape && !Array.isArray(value)) return bindObject(def.shape, value as Record<string, unknown>, form);
  if (def.type === 'array' && def.element && Array.isArray(value)) return value.map((v) => bind(def.element!, v, false));
  return value;
}

export const isFormBody = (value: unknown): boolean =>
  !!value && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, FORM);
