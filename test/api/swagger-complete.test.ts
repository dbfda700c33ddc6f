import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/routes/api/v1/index';
import { buildSwagger } from '../../src/routes/swagger';
import { apiFacts } from '../helpers/swagger';

// The project's own swagger (built from the route table) lists every operation of Gitea 1.25.4's
// reference (its facts: test/fixtures/gitea-api-facts.json), at the same method and path, and
// marks whatever it adds as an extension.

const ours = buildSwagger(apiRoutes, 'http://localhost:3000/') as unknown as {
  paths: Record<string, Record<string, { operationId: string; 'x-hearth-extension'?: boolean }>>;
};
const operations = (paths: Record<string, Record<string, { operationId: string }>>) =>
  Object.entries(paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, id: op.operationId })));
const reference = apiFacts().operations.map((o) => ({ key: `${o.method.toUpperCase()} ${o.path}`, id: o.operationId }));

describe("the project's swagger", () => {
  it('lists every operation of the reference, with its operationId', () => {
    const have = new Map(operations(ours.paths).map((o) => [o.key, o.id]));
    const missing = reference.filter((o) => have.get(o.key) !== o.id).map((o) => `${o.key} (${o.id})`);
    expect(missing).toEqual([]);
  });

  it('marks every operation beyond the reference as an extension, and names none twice', () => {
    const inReference = new Set(reference.map((o) => o.key));
    const unmarked = Object.entries(ours.paths).flatMap(([p, ops]) => Object.entries(ops)
      .filter(([m, op]) => !inReference.has(`${m.toUpperCase()} ${p}`) && !op['x-hearth-extension'])
      .map(([m, op]) => `${m.toUpperCase()} ${p} (${op.operationId})`));
    expect(unmarked).toEqual([]);
    const ids = operations(ours.paths).map((o) => o.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});
