import crypto from 'node:crypto';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { BadRequestError, ForbiddenError, PayloadTooLargeError } from '../../lib/errors';
import { multer } from '../../lib/lazy-require';
import { indexedRouter } from './route-index';
import { expectedCsrf, formUser, pageUser } from './session';

// The web route table's shape: routes come in named groups, each carrying its guard chain once
// (as the API's actions-routes.ts). Before the group's guards every route gets the site's own:
// GET pages find their user (session, else Basic or token); POST forms parse their body, take a
// session only, refuse cross-site posts and check the CSRF token. A route added to any group
// gets them: nobody can forget the CSRF check of a new form.

/**
 * A multipart form (file uploads): its files are parsed in memory, within these limits (read
 * from the request's config), before the CSRF check, which then finds `_csrf` among the fields.
 */
export type Multipart = { field: string; limits: (req: Request) => { fileSize: number; files: number } };
export type WebRoute = { method: 'get' | 'post'; path: string; chain: RequestHandler[]; multipart?: Multipart };
export type WebGroup = { name: string; guards: RequestHandler[]; routes: WebRoute[]; bare?: boolean };
/** A route as mounted: every handler it runs, in order. */
export type MountedRoute = WebRoute & { group: string };

type Handlers = (RequestHandler | readonly RequestHandler[])[];
export const get = (path: string, ...chain: Handlers): WebRoute => ({ method: 'get', path, chain: chain.flat() });
export const post = (path: string, ...chain: Handlers): WebRoute => ({ method: 'post', path, chain: chain.flat() });
/** A POST form that sends files (`enctype="multipart/form-data"`). */
export const upload = (path: string, multipart: Multipart, ...chain: Handlers): WebRoute =>
  ({ method: 'post', path, chain: chain.flat(), multipart });

/**
 * A group of routes sharing their guards. `bare` groups (static assets) skip the site's chain:
 * they read no user and change nothing, and may have no POST route.
 */
export function group(name: string, guards: readonly RequestHandler[], routes: WebRoute[], opts: { bare?: boolean } = {}): WebGroup {
  if (opts.bare && routes.some((r) => r.method === 'post')) throw new Error(`web group ${name}: a bare group cannot take forms`);
  return { name, guards: [...guards], routes, bare: opts.bare };
}

const sameToken = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** The CSRF check of every form: `_csrf` in the body or the `X-Csrf-Token` header (scripts). */
export const csrf: RequestHandler = (req, res, next) => {
  const body = req.body as Record<string, unknown> | undefined;
  const sent = req.get('X-Csrf-Token') ?? (typeof body?._csrf === 'string' ? body._csrf : '');
  const expected = expectedCsrf(req, res);
  if (!expected || !sameToken(sent, expected)) {
    throw new ForbiddenError('This form has expired or was not sent from this site. Reload the page and try again.');
  }
  next();
};

/** Form bodies: URL-encoded (forms) or JSON (the page script); small, as forms are. */
export const formBody: RequestHandler[] = [
  express.urlencoded({ extended: false, limit: '256kb' }),
  express.json({ limit: '256kb' }),
];

export const GET_CHAIN: readonly RequestHandler[] = pageUser;
export const POST_CHAIN: readonly RequestHandler[] = [...formBody, ...formUser, csrf];
function multipartError(err: unknown): Error {
  const e = err as { code?: string; message?: string };
  if (e.code === 'LIMIT_FILE_SIZE') return new PayloadTooLargeError('A file is larger than this form takes.');
  if (e.code === 'LIMIT_FILE_COUNT' || e.code === 'LIMIT_UNEXPECTED_FILE') return new BadRequestError('This form takes fewer files.');
  return new BadRequestError(`The form could not be read: ${e.message ?? 'malformed multipart body'}`);
}

/**
 * The body of a multipart form, by multer (loaded with the first upload), files kept in memory:
 * they become a commit or nothing, and a refused form leaves nothing on disk.
 */
export function multipartBody(spec: Multipart): RequestHandler {
  return (req, res, next) => {
    // A form sent without files (a client that left the enctype out) parses as the other forms do.
    if (!req.is('multipart/form-data')) return formBody[0]!(req, res, (err?: unknown) => (err ? next(err) : formBody[1]!(req, res, next)));
    const { fileSize, files } = spec.limits(req);
    const m = multer();
    const parse = m({ storage: m.memoryStorage(), limits: { fileSize, files, fields: 50, fieldSize: 1024 * 1024 }, defParamCharset: 'utf8' });
    parse.array(spec.field, files)(req, res, (err?: unknown) => next(err ? multipartError(err) : undefined));
  };
}

const multipartChains = new WeakMap<Multipart, readonly RequestHandler[]>();

/** The site chain of a multipart form: the user's checks first (a refused post is not parsed at all), then the body, then CSRF. */
export function multipartChain(spec: Multipart): readonly RequestHandler[] {
  let chain = multipartChains.get(spec);
  if (!chain) multipartChains.set(spec, (chain = [...formUser, multipartBody(spec), csrf]));
  return chain;
}

/** What the site runs before a route's group guards: the user, and for forms the body and the CSRF check. */
export function siteChain(g: Pick<WebGroup, 'bare'>, r: Pick<WebRoute, 'method' | 'multipart'>): readonly RequestHandler[] {
  if (g.bare) return [];
  if (r.method === 'get') return GET_CHAIN;
  return r.multipart ? multipartChain(r.multipart) : POST_CHAIN;
}

/** Every route of the groups with its whole chain, in mount order. */
export function mountedRoutes(groups: WebGroup[]): MountedRoute[] {
  return groups.flatMap((g) => g.routes.map((r) => {
    return { group: g.name, method: r.method, path: r.path, chain: [...siteChain(g, r), ...g.guards, ...r.chain], multipart: r.multipart };
  }));
}

/**
 * Mounts the routes in three routers by method, each keeping the table's order: express tries a
 * router's routes one by one, and a page walked past every form's pattern before its own (the
 * POST routes are about half the table). GET and HEAD try the pages, POST the forms, each behind
 * the index of their paths' literal segments (route-index.ts); any other method (OPTIONS:
 * express's Allow answer) the whole table, as one router, built when first asked.
 */
export function mountGroups(router: Router, groups: WebGroup[]): void {
  const routes = mountedRoutes(groups);
  const routerOf = (only?: WebRoute['method']) => {
    const r = express.Router();
    for (const m of routes) if (!only || m.method === only) r[m.method](m.path, ...m.chain);
    return r;
  };
  const indexed = (method: WebRoute['method']) => indexedRouter(routerOf(method), routes.filter((m) => m.method === method).map((m) => m.path));
  const [pages, forms] = [indexed('get'), indexed('post')];
  let rest: Router | undefined;
  router.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return pages(req, res, next);
    if (req.method === 'POST') return forms(req, res, next);
    return (rest ??= routerOf())(req, res, next);
  });
}
