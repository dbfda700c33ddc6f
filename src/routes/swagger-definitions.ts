import * as z from 'zod';
import * as definitions from './api/v1/schemas';
import * as extensionDefinitions from './api/v1/schemas/extensions';
import { schemaDocs } from './validate';

// The swagger's definitions, from zod: the answers' shapes (api/v1/schemas) and the bodies the
// handlers validate (named() where they live), converted by zod's JSON Schema output and then
// told in Swagger 2.0's dialect (no anyOf or null type: `x-nullable`; refs under #/definitions).

export type Schema = Record<string, unknown>;

const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
/** Keys Swagger 2.0 schemas do not have, or that say nothing to a client. */
const DROPPED = new Set(['$id', '$schema', 'propertyNames', 'id']);

const isNullType = (s: unknown) => (s as Schema)?.type === 'null' || (s as Schema)?.nullable === true && Object.keys(s as Schema).length === 1;

/** anyOf / oneOf: `x | null` is x, nullable; branches of one type are that type; else anything. */
function union(branches: Schema[], nullable: boolean): Schema {
  const rest = branches.filter((b) => !isNullType(b)).map(toSwagger);
  const isNull = nullable || rest.length < branches.length;
  let out: Schema = {};
  if (rest.length === 1) out = rest[0]!;
  else if (rest.length > 1 && rest.every((b) => b.type && b.type === rest[0]!.type && !b.$ref)) {
    out = { type: rest[0]!.type };
    if (rest.every((b) => Array.isArray(b.enum))) out.enum = [...new Set(rest.flatMap((b) => b.enum as unknown[]))];
  }
  return isNull && !out.$ref ? { ...out, 'x-nullable': true } : out;
}

/** One JSON Schema node (from zod, OpenAPI 3.0 flavour) as a Swagger 2.0 schema. */
export function toSwagger(input: unknown): Schema {
  const s = { ...(input as Schema) };
  for (const k of DROPPED) delete s[k];
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) {
    const { anyOf: _a, oneOf: _o, nullable, ...rest } = s;
    return { ...rest, ...union(branches, nullable === true) };
  }
  if (Array.isArray(s.allOf) && s.allOf.length === 1) {
    const { allOf, nullable: _n, ...rest } = s;
    return { ...toSwagger(allOf[0]), ...rest };
  }
  if (s.nullable === true) {
    delete s.nullable;
    s['x-nullable'] = true;
  }
  if ('const' in s) {
    s.enum = [s.const];
    delete s.const;
  }
  if (s.type === 'integer') {
    if (SAFE_BOUNDS.has(s.minimum as number)) delete s.minimum;
    if (SAFE_BOUNDS.has(s.maximum as number)) delete s.maximum;
    s.format ??= 'int64';
  }
  if (s.additionalProperties === false) delete s.additionalProperties;
  else if (s.additionalProperties && typeof s.additionalProperties === 'object') s.additionalProperties = toSwagger(s.additionalProperties);
  if (s.items) s.items = toSwagger(s.items);
  if (s.properties) s.properties = Object.fromEntries(Object.entries(s.properties as Schema).map(([k, v]) => [k, toSwagger(v)]));
  if (s.$ref) return { $ref: s.$ref };
  return s;
}

/** Which name each schema goes by: the answers' exports, then the handlers' named bodies. */
function registered(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  const taken = new Set<string>();
  const add = (name: string, schema: z.ZodType) => {
    // A second schema of one name (each module validating its own copy): the first speaks for
    // both; swagger-complete.test.ts checks they agree.
    if (taken.has(name)) return;
    taken.add(name);
    registry.add(schema, { id: name });
  };
  for (const [name, schema] of Object.entries(definitions)) add(name, schema as z.ZodType);
  for (const [schema, name] of schemaDocs.names) add(name, schema);
  return registry;
}

const EXTENSION_DEFINITIONS = new Set(Object.keys(extensionDefinitions));

/** What validate.ts recorded of a schema (format, extension, a simpler form) goes into its JSON. */
function override(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const schema = ctx.zodSchema as z.ZodType;
  const shown = schemaDocs.shown.get(schema);
  if (shown) {
    for (const k of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[k];
    Object.assign(ctx.jsonSchema, shown);
  }
  const format = schemaDocs.formats.get(schema);
  if (format) ctx.jsonSchema.format = format;
  if (schemaDocs.extensions.has(schema)) ctx.jsonSchema['x-hearth-extension'] = true;
}

const OPTIONS = { target: 'openapi-3.0', io: 'input', unrepresentable: 'any', override } as const;

/** Every definition, by name, in Swagger 2.0's dialect. */
export function buildDefinitions(): Record<string, Schema> {
  const out = z.toJSONSchema(registered(), { ...OPTIONS, uri: (id) => `#/definitions/${id}` });
  const defs: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(out.schemas)) {
    defs[name] = toSwagger(schema);
    if (EXTENSION_DEFINITIONS.has(name)) defs[name]['x-hearth-extension'] = true;
  }
  return Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b)));
}

/** A schema of one request body in Swagger 2.0's dialect (for bodies without a name). */
export const inlineSchema = (schema: z.ZodType): Schema => toSwagger(z.toJSONSchema(schema, OPTIONS));

/** The name a body schema goes by, if any. */
export const nameOf = (schema: z.ZodType): string | undefined => schemaDocs.names.get(schema);
