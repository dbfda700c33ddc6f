import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiGroups, apiRoutes } from '../../src/routes/api/v1/index';
import { loadedRoutes, mountGroups, routesOf, WILDCARD_PATHS, type ApiRoute } from '../../src/routes/table';

// The API route table as requests meet it, against a record of the flat table taken before it
// was regrouped by area (test/fixtures/api-route-table.json): every route keeps its tag, its
// guards in their order and its handler, and any two routes one request could match are tried
// in the same order. `RECORD_ROUTE_TABLE=1` rewrites the record from the current table.
// Rows name most guards and handlers lazily (src/routes/lazy.ts): the table is read with them
// loaded, each chain holding the modules' own functions.

const SRC = path.resolve(__dirname, '../../src/routes');
const RECORD = path.resolve(__dirname, '../fixtures/api-route-table.json');
const labels = new Map<unknown, string>();

function labelExports(base: string, prefix: string, value: unknown, depth: number): void {
  if (typeof value === 'function' && !labels.has(value)) labels.set(value, `${base}.${prefix}`);
  if (depth < 3 && value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) labelExports(base, `${prefix}.${k}`, v, depth + 1);
  }
}

/** Names every function the route modules and guard modules export (and their objects' ones). */
async function collectLabels(): Promise<void> {
  for (const dir of ['middleware', 'api/v1']) {
    for (const file of fs.readdirSync(path.join(SRC, dir)).filter((f) => f.endsWith('.ts')).sort()) {
      const mod = (await import(path.join(SRC, dir, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) labelExports(file.replace(/\.ts$/, ''), name, value, 1);
    }
  }
}

/**
 * A scope guard by its categories; an unexported function (a factory's, `stars.star(true)`) by
 * its source and the first operation (by id) that uses that very instance, so two instances of
 * one factory stay apart whatever order the table lists them in.
 */
function labeller(routes: readonly ApiRoute[]): (fn: RequestHandler) => string {
  const firstUser = new Map<unknown, string>();
  for (const r of [...routes].sort((a, b) => a.operationId.localeCompare(b.operationId))) {
    r.chain.forEach((fn, i) => { if (!firstUser.has(fn)) firstUser.set(fn, `${r.operationId}#${i}`); });
  }
  return (fn) => {
    const categories = (fn as { scopeCategories?: string[] }).scopeCategories;
    if (categories) return `scope(${categories.join(',')})`;
    const hash = crypto.createHash('sha256').update(fn.toString()).digest('hex').slice(0, 12);
    return labels.get(fn) ?? `unexported:${hash}@${firstUser.get(fn)}`;
  };
}

type Table = { prefix: string; routes: string[] }[];

let loaded: ApiRoute[] = [];

function table(): Table {
  const label = labeller(loaded);
  return [...mountGroups(loaded)].map(([prefix, routes]) => ({
    prefix,
    routes: routes.map((r) => `${r.method.toUpperCase()} ${r.path} ${r.operationId} [${r.tag}${r.extension ? ', extension' : ''}]: ${r.chain.map(label).join(', ')}`),
  }));
}

type Segment = string | { param: string };

/**
 * One route pattern's segments: literal text or a parameter; a trailing wildcard spans many.
 * `{index}` and `{id}` behind numericIndex / numericId match digits only.
 */
const patterns = new Map<string, ReturnType<typeof parsePattern>>();
const pattern = (line: string) => patterns.get(line) ?? patterns.set(line, parsePattern(line)).get(line)!;

function parsePattern(line: string) {
  const [, p] = line.split(' ') as [string, string];
  const numeric = new Set([...line.matchAll(/issue-guards\.numeric(Index|Id)/g)].map((m) => m[1]!.toLowerCase()));
  const segments: Segment[] = p.split('/').slice(1).map((s) => {
    const m = /^\{([^}]+)\}$/.exec(s);
    return m && numeric.has(m[1]!) ? { param: 'digits' } : s.includes('{') ? { param: 'any' } : s;
  });
  const wildcard = WILDCARD_PATHS.has(p) || p.endsWith('/{filepath}');
  return { fixed: wildcard ? segments.slice(0, -1) : segments, wildcard, min: p.includes('/contents-ext/') ? 0 : 1 };
}

function compatible(a: Segment | undefined, b: Segment | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  const [lit, param] = typeof a === 'string' ? [a, b] : [b, a];
  if (typeof lit !== 'string') return true;
  return (param as { param: string }).param === 'any' || /^\d+$/.test(lit);
}

/** Whether one request path could match both routes' patterns. */
function overlap(a: string, b: string): boolean {
  const [x, y] = [pattern(a), pattern(b)];
  const same = (n: number) => x.fixed.slice(0, n).every((s, i) => compatible(s, y.fixed[i]));
  if (!x.wildcard && !y.wildcard) return x.fixed.length === y.fixed.length && same(x.fixed.length);
  if (x.wildcard && y.wildcard) return same(Math.min(x.fixed.length, y.fixed.length));
  const [w, f] = x.wildcard ? [x, y] : [y, x];
  return f.fixed.length >= w.fixed.length + w.min && same(Math.min(x.fixed.length, y.fixed.length));
}

/** Pairs of routes one request could reach, in the order requests try them. */
function orderedPairs(t: Table): Set<string> {
  const tried = t.flatMap((g) => g.routes);
  const pairs = new Set<string>();
  tried.forEach((a, i) => tried.slice(i + 1).forEach((b) => {
    const [[m1, p1], [m2, p2]] = [a.split(' '), b.split(' ')];
    if (m1 === m2 && p1 !== p2 && overlap(a, b)) pairs.add(`${m1} ${p1} before ${p2}`);
  }));
  return pairs;
}

describe('the API route table', () => {
  beforeAll(async () => {
    await collectLabels();
    loaded = await loadedRoutes(apiRoutes);
    if (process.env.RECORD_ROUTE_TABLE === '1') fs.writeFileSync(RECORD, `${JSON.stringify(table(), null, 1)}\n`);
  });
  const recorded = () => JSON.parse(fs.readFileSync(RECORD, 'utf8')) as Table;

  it('keeps every route with its tag, its guards in order and its handler', () => {
    const lines = (t: Table) => t.flatMap((g) => g.routes).sort();
    expect(lines(table())).toEqual(lines(recorded()));
  });

  it('tries any two routes one request could match in the same order as before', () => {
    const now = orderedPairs(table());
    const swapped = [...orderedPairs(recorded())].filter((p) => !now.has(p));
    expect(swapped).toEqual([]);
  });

  it('keeps each route in its sub-router', () => {
    const where = (t: Table) => t.flatMap((g) => g.routes.map((r) => `${r.split(':')[0]} in ${g.prefix}`)).sort();
    expect(where(table())).toEqual(where(recorded()));
  });

  it('runs every route of a group behind the group\'s guards, in order, before its own', () => {
    const stray = apiGroups.flatMap((g) => g.routes
      .filter((r) => g.guards.some((guard, i) => r.chain[i] !== guard) || r.chain.length <= g.guards.length)
      .map((r) => `${g.name}: ${r.method.toUpperCase()} ${r.path}`));
    expect(stray).toEqual([]);
    expect(apiGroups.every((g) => g.name && g.routes.length > 0)).toBe(true);
  });

  it('serves exactly the routes of the groups', () => {
    expect(routesOf(apiGroups)).toEqual(apiRoutes);
  });
});
