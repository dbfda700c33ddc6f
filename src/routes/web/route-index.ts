import express, { type RequestHandler, type Router } from 'express';

// Express tries a router's routes one by one, a regular expression each: a repository's settings
// page walked past the ~110 GET routes mounted before its own. The index narrows that walk by
// the routes' literal first and third path segments (`user`, `-`, `org`…; `settings`, `issues`,
// `wiki`…): a request tries only the routes whose literal segments its path has there, or that
// take any text there, in the table's order. A route left out could not have matched, so each
// request still reaches the route the whole table gives it (test/web/route-index.test.ts).

/** The path segments (0-based, after the leading slash) the index keys on. */
const POSITIONS = [0, 2] as const;

/**
 * A route path's literal segment at `index`, lowercased (routes match case-insensitively); null
 * where the route takes any text there: a parameter, a segment past its end (a trailing slash
 * is one more, empty, segment), or anything after a wildcard or an optional part, whose extent
 * shifts the segments that follow.
 */
export function literalSegment(path: string, index: number): string | null {
  const segments = path.split('/').slice(1);
  for (let i = 0; i <= index; i++) {
    const s = segments[i];
    if (s === undefined || /[*{}()[\]?+!\\]/.test(s)) return null;
    if (i === index) return s.includes(':') || s === '' ? null : s.toLowerCase();
  }
  return null;
}

/**
 * The indexes (in table order) of the routes a request path may match: each route whose literal
 * segments, at the keyed positions, are the path's own there. One list per distinct key, kept:
 * there are at most (literals + 1) per position of them, whatever paths arrive.
 */
export function routeIndex(paths: readonly string[]): (pathname: string) => readonly number[] {
  const shapes = paths.map((p) => POSITIONS.map((i) => literalSegment(p, i)));
  const literals = POSITIONS.map((_, j) => new Set(shapes.map((s) => s[j]).filter((l): l is string => l !== null)));
  const lists = new Map<string, number[]>();
  return (pathname) => {
    const parts = pathname.split('/', POSITIONS[POSITIONS.length - 1] + 2);
    const key = POSITIONS.map((i, j) => {
      const s = (parts[i + 1] ?? '').toLowerCase();
      return literals[j]!.has(s) ? s : '';
    });
    const name = key.join('/');
    let list = lists.get(name);
    if (!list) {
      list = shapes.flatMap((shape, r) => (shape.every((l, j) => l === null || l === key[j]) ? [r] : []));
      lists.set(name, list);
    }
    return list;
  };
}

/**
 * `router`'s routes behind the index: each request goes to a router holding the candidates'
 * layers only (the same layer objects, in the same order), made with the first request of its
 * key. `paths[i]` is the path of `router.stack[i]`.
 */
export function indexedRouter(router: Router, paths: readonly string[]): RequestHandler {
  if (router.stack.length !== paths.length) throw new Error('indexedRouter: one path per layer');
  const candidates = routeIndex(paths);
  const narrowed = new Map<readonly number[], Router>();
  return (req, res, next) => {
    const list = candidates(req.path);
    let sub = narrowed.get(list);
    if (!sub) {
      sub = express.Router();
      sub.stack = list.map((i) => router.stack[i]!);
      narrowed.set(list, sub);
    }
    return sub(req, res, next);
  };
}
