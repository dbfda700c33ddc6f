import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import { expect } from 'vitest';

// The reference description lives beside the checkout; it is read, never copied into the project.
const REFERENCE = path.resolve(__dirname, '../../../shared/reference/gitea-api-v1.swagger.json');

type Swagger = { definitions: Record<string, unknown> };

let ajv: Ajv | null = null;
let warned = false;

/** CI machines without the reference beside the checkout still run every other assertion. */
function referencePresent(): boolean {
  if (fs.existsSync(REFERENCE)) return true;
  if (!warned) console.warn(`reference ${REFERENCE} not found: response shapes not checked`);
  warned = true;
  return false;
}
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv {
  if (ajv) return ajv;
  const doc = JSON.parse(fs.readFileSync(REFERENCE, 'utf8')) as Swagger;
  // Swagger 2 schemas are JSON Schema draft 4 with extras: drop the extras ajv does not know.
  ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // Gitea sends "" for an absent address (an organization without one); the reference says
  // format: email all the same.
  const email = fullFormats.email as RegExp;
  ajv.addFormat('email', (v: string) => v === '' || email.test(v));
  ajv.addKeyword('x-go-name');
  ajv.addKeyword('x-go-package');
  ajv.addKeyword('x-nullable');
  ajv.addSchema({ definitions: doc.definitions }, 'swagger');
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
  if (!referencePresent()) return;
  const list = name.startsWith('[') && name.endsWith(']');
  const def = list ? name.slice(1, -1) : name;
  const v = validator(def);
  const items = list ? (expect(Array.isArray(body)).toBe(true), body as unknown[]) : [body];
  for (const item of items) {
    const ok = v(item);
    expect(ok ? [] : v.errors, `${def} shape`).toEqual([]);
  }
}

/** Every field the reference defines for `name` is present in `body` (Gitea always sends them). */
export function expectAllFields(body: Record<string, unknown>, name: string): void {
  if (!referencePresent()) return;
  const doc = JSON.parse(fs.readFileSync(REFERENCE, 'utf8')) as { definitions: Record<string, { properties?: object }> };
  const fields = Object.keys(doc.definitions[name]?.properties ?? {});
  expect(fields.filter((f) => !(f in body)), `${name} fields missing`).toEqual([]);
}
