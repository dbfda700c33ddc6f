#!/usr/bin/env node
// Extracts the facts of Gitea 1.25.4's published API description (its swagger 2.0 file,
// gitea-api-v1.swagger.json) that hearth's tests check against: every operation's method, path,
// operationId, tags, parameters and response shapes, and every definition's property names and
// types. Names and types only: descriptions, summaries, titles, examples and other prose are
// left out, so the repository carries what the interface is, not how Gitea words it.
//
//   node scripts/reference-facts.mjs [path/to/gitea-api-v1.swagger.json]
//
// writes test/fixtures/gitea-api-facts.json (the reference defaults to ../shared/reference/).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const input = path.resolve(process.argv[2] ?? path.join(root, '../shared/reference/gitea-api-v1.swagger.json'));
const output = path.join(root, 'test/fixtures/gitea-api-facts.json');

const doc = JSON.parse(fs.readFileSync(input, 'utf8'));

/** Keeps only the keys that say what a value is (its validation), never what it means. */
const SCHEMA_KEYS = ['type', 'format', 'enum', '$ref', 'x-nullable'];

function schemaFacts(s) {
  if (s === undefined || s === null || typeof s !== 'object') return s;
  const out = {};
  for (const k of SCHEMA_KEYS) if (k in s) out[k] = s[k];
  if (s.items) out.items = schemaFacts(s.items);
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'object' ? schemaFacts(s.additionalProperties) : s.additionalProperties;
  }
  if (s.properties) {
    out.properties = Object.fromEntries(Object.keys(s.properties).sort().map((n) => [n, schemaFacts(s.properties[n])]));
  }
  if (Array.isArray(s.required) && s.required.length) out.required = [...s.required].sort();
  return out;
}

const PARAM_KEYS = ['name', 'in', 'type', 'format', 'enum', 'default', 'minimum', 'collectionFormat', 'required'];

function paramFacts(p) {
  const out = {};
  for (const k of PARAM_KEYS) if (k in p) out[k] = p[k];
  if (p.items) out.items = schemaFacts(p.items);
  if (p.schema) out.schema = schemaFacts(p.schema);
  return out;
}

const DEF = '#/definitions/';
const RESPONSE = '#/responses/';

/**
 * A response as the name of its definition, `[Name]` for an array of one, null when it has no
 * body (errors and empty answers), or the shape itself when it is written inline.
 */
function responseFacts(r) {
  const resolved = r.$ref?.startsWith(RESPONSE) ? doc.responses[r.$ref.slice(RESPONSE.length)] : r;
  const s = resolved?.schema;
  if (!s) return null;
  if (s.$ref?.startsWith(DEF)) return s.$ref.slice(DEF.length);
  if (s.type === 'array' && s.items?.$ref?.startsWith(DEF)) return [s.items.$ref.slice(DEF.length)];
  return { schema: schemaFacts(s) };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];
const operations = [];
for (const p of Object.keys(doc.paths).sort()) {
  for (const m of METHODS) {
    const op = doc.paths[p][m];
    if (!op) continue;
    operations.push({
      method: m,
      path: p,
      operationId: op.operationId,
      tags: op.tags ?? [],
      ...(op.deprecated ? { deprecated: true } : {}),
      ...(op.consumes ? { consumes: op.consumes } : {}),
      ...(op.produces ? { produces: op.produces } : {}),
      parameters: (op.parameters ?? []).map(paramFacts),
      responses: Object.fromEntries(Object.keys(op.responses ?? {}).sort().map((c) => [c, responseFacts(op.responses[c])])),
    });
  }
}

const definitions = Object.fromEntries(Object.keys(doc.definitions).sort().map((n) => [n, schemaFacts(doc.definitions[n])]));

const facts = {
  source: `Gitea ${doc.info.version}'s published API description (swagger ${doc.swagger}), ${path.basename(input)}: names, places and types only, no prose`,
  generatedBy: 'scripts/reference-facts.mjs',
  giteaVersion: doc.info.version,
  basePath: doc.basePath,
  operations,
  definitions,
};

fs.mkdirSync(path.dirname(output), { recursive: true });
// One operation and one definition a line: small diffs when the reference moves.
const lines = (entries) => entries.map((e) => `  ${e}`).join(',\n');
const text = `{
 "source": ${JSON.stringify(facts.source)},
 "generatedBy": ${JSON.stringify(facts.generatedBy)},
 "giteaVersion": ${JSON.stringify(facts.giteaVersion)},
 "basePath": ${JSON.stringify(facts.basePath)},
 "operations": [
${lines(operations.map((o) => JSON.stringify(o)))}
 ],
 "definitions": {
${lines(Object.entries(definitions).map(([n, d]) => `${JSON.stringify(n)}: ${JSON.stringify(d)}`))}
 }
}
`;
if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(facts)) throw new Error('facts do not round-trip');
fs.writeFileSync(output, text);
console.log(`${path.relative(root, output)}: ${operations.length} operations, ${Object.keys(definitions).length} definitions`);
