import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import { expect } from 'vitest';

/**
 * The facts of Gitea 1.25.4's published swagger (names, places, types; no prose), extracted by
 * scripts/reference-facts.mjs and committed with the tests, so a fresh clone checks every shape.
 */
export const FACTS_FILE = path.resolve(__dirname, '../fixtures/gitea-api-facts.json');

export type SchemaFacts = {
  type?: string; format?: string; enum?: unknown[]; $ref?: string; 'x-nullable'?: boolean;
  items?: SchemaFacts; additionalProperties?: SchemaFacts | boolean;
  properties?: Record<string, SchemaFacts>; required?: string[];
};
export type ParameterFacts = {
  name: string; in: 'path' | 'query' | 'body' | 'formData' | 'header'; type?: string; format?: string;
  enum?: unknown[]; default?: unknown; items?: SchemaFacts; schema?: SchemaFacts; required?: boolean;
};
/** A definition's name, `[Name]` as a one-element array, null for no body, or an inline shape. */
export type ResponseFacts = string | [string] | { schema: SchemaFacts } | null;
export type OperationFacts = {
  method: string; path: string; operationId: string; tags: string[]; deprecated?: boolean;
  parameters: ParameterFacts[]; responses: Record<string, ResponseFacts>;
};
export type ApiFacts = {
  source: string; giteaVersion: string; operations: OperationFacts[]; definitions: Record<string, SchemaFacts>;
};

let facts: ApiFacts | null = null;
export const apiFacts = (): ApiFacts => (facts ??= JSON.parse(fs.readFileSync(FACTS_FILE, 'utf8')) as ApiFacts);

let ajv: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv {
  if (ajv) return ajv;
  // Swagger 2 schemas are JSON Schema draft 4 with extras: drop the extras ajv does not know.
  ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // Gitea sends "" for an absent address (an organization without one); the reference says
  // format: email all the same.
  const email = fullFormats.email as RegExp;
  ajv.addFormat('email', (v: string) => v === '' || email.test(v));
  ajv.addKeyword('x-nullable');
  ajv.addSchema({ definitions: apiFacts().definitions }, 'swagger');
  return ajv;
}

function validator(name: string): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = instance().compile({ $ref: `swagger#/definitions/${name}` });
    compiled.set(name, v);
  }
  return v;
}

/** Asserts `body` matches the reference definition `name` (or an array of it with `[name]`). */
export function expectShape(body: unknown, name: string): void {
  const list = name.startsWith('[') && name.endsWith(']');
  const def = list ? name.slice(1, -1) : name;
  expect(apiFacts().definitions[def], `definition ${def}`).toBeDefined();
  const v = validator(def);
  const items = list ? (expect(Array.isArray(body)).toBe(true), body as unknown[]) : [body];
  for (const item of items) {
    const ok = v(item);
    expect(ok ? [] : v.errors, `${def} shape`).toEqual([]);
  }
}

/** Every field the reference defines for `name` is present in `body` (Gitea always sends them). */
export function expectAllFields(body: Record<string, unknown>, name: string): void {
  const fields = Object.keys(apiFacts().definitions[name]?.properties ?? {});
  expect(fields.filter((f) => !(f in body)), `${name} fields missing`).toEqual([]);
}
