import express, { type Request, type RequestHandler, type Router } from 'express';
import type { ZodType } from 'zod';
import { NotFoundError } from '../lib/errors';
import { isDeferred, type Deferred } from './lazy';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A query parameter as the swagger states it; declared on the row, read with readQuery(). */
export type QueryParam = {
  name: string; type: 'string' | 'integer' | 'boolean' | 'array'; format?: string;
  enum?: readonly (string | number)[]; default?: unknown; required?: boolean; minimum?: number;
  items?: { type: 'string' | 'integer'; format?: string; enum?: readonly string[] }; collectionFormat?: 'multi' | 'csv';
};
/** A path parameter other than plain text: a number, or one of a few words. */
export type PathParamType = 'integer' | 'int64' | readonly string[];
/**
 * The request body: the zod schema the handler validates it with (named for the swagger by
 * named() in validate.ts; Deferred when it lives in a lazily loaded module), the name of a
 * definition in api/v1/schemas when the handler reads the body its own way, or a JSON schema
 * (plain text); `param` and `required` as the reference states them.
 */
export type BodySchema = ZodType | Deferred<ZodType>;
export type BodySpec = BodySchema | string | { of: BodySchema | string | JsonSchema; param?: string; required?: boolean };
export type JsonSchema = { readonly type: string; readonly [k: string]: unknown };
/** A multipart field (an uploaded file). */
export type FormField = { name: string; type: 'file' | 'string'; required?: boolean };
/**
 * A success answer: the definition's name, `[Name]` for a list of them, null without a body, or
 * a JSON schema for the few the reference writes inline (`{ type: 'string' }`, a file).
 */
export type ResponseShape = string | readonly [string] | null | { readonly [k: string]: unknown };

/** What the swagger says of a route besides its path; `extension` marks what Gitea lacks. */
export type RouteMeta = {
  tag: string; operationId: string; summary: string; extension?: boolean; deprecated?: boolean;
  /** Longer text for the swagger description (lists and enumerations a summary cannot hold). */
  description?: string;
  params?: Readonly<Record<string, PathParamType>>;
  /** Path parameters typed as integers that, as in Gitea, also take a name when not a number. */
  namesToo?: readonly string[];
  query?: readonly QueryParam[];
  body?: BodySpec;
  form?: readonly FormField[];
  responses?: Readonly<Record<number, ResponseShape>>;
  /** Media types of the body other than JSON (a form upload says multipart by itself). */
  consumes?: readonly string[];
  /** Media types other than JSON this route answers with (raw files, diffs, archives). */
  produces?: readonly string[];
};
export type ApiRoute = RouteMeta & { method: Method; path: string; chain: RequestHandler[] };
export type RowMeta = Omit<RouteMeta, 'operationId'> & { id: string };

/** One row of the route table: path in the reference's `{param}` form, its meta, then guards and handler. */
export const route = (method: Method) => (path: string, { id, ...meta }: RowMeta, ...chain: RequestHandler[]): ApiRoute => ({
  method, path, operationId: id, ...meta, chain,
});

export const get = route('get');
export const post = route('post');
export const put = route('put');
export const patch = route('patch');
export const del = route('delete');

/**
 * Routes that share who may call them: each route runs the group's guards first, then its own
 * (an area's extra check, then the handler). `prefix` is put before each row's path.
 */
export type RouteGroup = { name: string; guards: readonly RequestHandler[]; routes: readonly ApiRoute[] };

export function group(
  opts: { name: string; guards: readonly RequestHandler[]; prefix?: string }, rows: readonly ApiRoute[],
): RouteGroup {
  const routes = rows.map((r) => ({ ...r, path: `${opts.prefix ?? ''}${r.path}`, chain: [...opts.guards, ...r.chain] }));
  return { name: opts.name, guards: opts.guards, routes };
}

/** The routes of groups, in order. */
export const routesOf = (groups: readonly RouteGroup[]): ApiRoute[] => groups.flatMap((g) => g.routes);

const loaded = <T>(v: T | Deferred<T>): Promise<T> => (isDeferred(v) ? v.load() as Promise<T> : Promise.resolve(v as T));

async function loadedBody(spec: BodySpec): Promise<BodySpec> {
  if (typeof spec === 'object' && 'of' in spec) return { ...spec, of: await loaded(spec.of) };
  return loaded(spec);
}

/**
 * The routes with what their rows name lazily (lazy.ts) loaded: each chain holds the modules'
 * own guards and handlers, each body its schema, as the swagger and the tests read them.
 */
export const loadedRoutes = (routes: readonly ApiRoute[]): Promise<ApiRoute[]> => Promise.all(routes.map(async (r) => ({
  ...r, chain: await Promise.all(r.chain.map((fn) => loaded(fn))), ...(r.body ? { body: await loadedBody(r.body) } : {}),
})));

/**
 * Routes whose last `{param}` may span slashes, as Gitea routes them with `/*` (branch and tag
 * names contain `/`). Express hands such a param over as segments: read it with pathParam().
 */
export const WILDCARD_PATHS = new Set<string>([
  '/repos/{owner}/{repo}/branches/{branch}',
  '/repos/{owner}/{repo}/tags/{tag}',
  '/repos/{owner}/{repo}/git/refs/{ref}',
  '/repos/{owner}/{repo}/git/trees/{sha}',
  '/repos/{owner}/{repo}/compare/{basehead}',
  '/repos/{owner}/{repo}/archive/{archive}',
]);

/** A trailing `{filepath}` (a path inside a tree) always spans slashes. */
const isWildcard = (path: string) => WILDCARD_PATHS.has(path) || path.endsWith('/{filepath}');

/** Wildcards that may also be empty, as Gitea's `/*`: contents-ext of `.` reaches us as `contents-ext/`. */
const OPTIONAL_WILDCARD_PATHS = new Set<string>(['/repos/{owner}/{repo}/contents-ext/{filepath}']);

/** Express names params as identifiers: the reference's `{user-id}` becomes `:user_id`. */
const toParams = (path: string) => path.replace(/\{([^}]+)\}/g, (_m, n: string) => `:${n.replace(/-/g, '_')}`);

export const expressPath = (path: string) => (OPTIONAL_WILDCARD_PATHS.has(path)
  ? `${toParams(path.replace(/\/\{[^}]+\}$/, ''))}{/*${/\{([^}]+)\}$/.exec(path)![1]}}`
  : toParams(isWildcard(path) ? path.replace(/\{([^}]+)\}$/, '*$1') : path));

/** A path parameter as text; wildcard params (WILDCARD_PATHS) are joined back with `/`. */
export function pathParam(req: Request, name: string): string {
  const v = req.params[name.replace(/-/g, '_')] as unknown;
  return Array.isArray(v) ? v.join('/') : String(v ?? '');
}

/**
 * The sub-router a route lives in: its first segment, or for a repository's routes the segment
 * after `{repo}`. Express tries a router's routes one by one, so one flat table of 400 routes
 * cost a request hundreds of pattern matches (bench/api); groups keep it to a few dozen.
 */
function groupOf(path: string): string {
  const m = /^\/repos\/\{owner\}\/\{repo\}\/([^/{]+)/.exec(path);
  return m ? m[0] : `/${path.split('/')[1]}`;
}

/**
 * The sub-routers and their routes, in the order requests try them.
 * Paths without parameters first, as Gitea's router prefers static segments: otherwise
 * `/repos/issues/search` would be taken for `/repos/{owner}/{repo}`. Groups are mounted in the
 * order of their first route, so the static paths' groups still come first.
 */
export function mountGroups(routes: readonly ApiRoute[]): Map<string, ApiRoute[]> {
  const fixed = (r: ApiRoute) => !r.path.includes('{');
  const groups = new Map<string, ApiRoute[]>();
  for (const r of [...routes.filter(fixed), ...routes.filter((r) => !fixed(r))]) {
    const key = groupOf(r.path);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return groups;
}

/**
 * The route's chain with its numeric path parameters checked before the handler (after the
 * guards, so an anonymous caller still gets their 401): a value that is no integer a JavaScript
 * number holds exactly (`abc`, `1.5`, 10^23) names nothing, a 404 as Gitea's failed parse of an
 * id gives. Passed on, PostgreSQL would refuse it as a bigint, where SQLite only matched nothing.
 */
function withNumericParams(r: ApiRoute): RequestHandler[] {
  const numeric = Object.entries(r.params ?? {})
    .filter(([n, t]) => (t === 'integer' || t === 'int64') && !r.namesToo?.includes(n)).map(([n]) => n.replace(/-/g, '_'));
  if (!numeric.length) return r.chain;
  const check: RequestHandler = (req, _res, next) => {
    const bad = numeric.some((n) => {
      const v = req.params[n];
      return typeof v === 'string' && !(/^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)));
    });
    next(bad ? new NotFoundError() : undefined);
  };
  return [...r.chain.slice(0, -1), check, ...r.chain.slice(-1)];
}

/** Mounts the routes' sub-routers in mountGroups() order: the order requests try them in. */
export function mount(router: Router, routes: readonly ApiRoute[]): void {
  for (const [prefix, members] of mountGroups(routes)) {
    const at = expressPath(prefix);
    // Each group's router is built with its first request: compiling the patterns of all ~500
    // routes took 15 ms of every start.
    let sub: Router | undefined;
    const build = () => {
      sub = express.Router({ mergeParams: true });
      for (const r of members) sub[r.method](expressPath(r.path).slice(at.length) || '/', ...withNumericParams(r));
      return sub;
    };
    router.use(at, (req, res, next) => { (sub ?? build())(req, res, next); });
  }
}
