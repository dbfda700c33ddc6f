import * as z from 'zod';
import { InvalidError } from '../lib/errors';
import { bind } from './body-binding';

/**
 * Validates a parsed body (JSON, or a form's fields) once bound as Gitea binds it (body-binding.ts);
 * the first problem becomes a 422 naming its field.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(bind(schema, body ?? {}));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : issue.message;
  throw new InvalidError(field ? `[${field}]: ${message}` : message, field || undefined);
}

// What the swagger document (built on its first request, swagger-doc.ts) needs to know of the
// request schemas that zod does not carry. Recording it is a map entry: nothing is converted
// until the document is asked for.

const names = new Map<z.ZodType, string>();
const formats = new Map<z.ZodType, string>();
const extensions = new Set<z.ZodType>();
const shown = new Map<z.ZodType, Readonly<Record<string, unknown>>>();

/** Names a schema after the definition it validates (Gitea's `CreateRepoOption`, say). */
export function named<T extends z.ZodType>(name: string, schema: T): T {
  names.set(schema, name);
  return schema;
}

/** A `format` the swagger states for a field (`date-time`, `email`); integers are int64 unless told. */
export function formatted<T extends z.ZodType>(format: string, schema: T): T {
  formats.set(schema, format);
  return schema;
}

/** A field hearth accepts beyond Gitea's, marked `x-hearth-extension` in the swagger. */
export function extension<T extends z.ZodType>(schema: T): T {
  extensions.add(schema);
  return schema;
}

/** How the swagger states a field zod cannot say simply (a union read as Gitea's single type). */
export function shownAs<T extends z.ZodType>(json: Readonly<Record<string, unknown>>, schema: T): T {
  shown.set(schema, json);
  return schema;
}

export const schemaDocs = {
  names: names as ReadonlyMap<z.ZodType, string>,
  formats: formats as ReadonlyMap<z.ZodType, string>,
  extensions: extensions as ReadonlySet<z.ZodType>,
  shown: shown as ReadonlyMap<z.ZodType, Readonly<Record<string, unknown>>>,
};
