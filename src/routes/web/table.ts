import crypto from 'node:crypto';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { BadRequestError, ForbiddenError, PayloadTooLargeError } from '../../lib/errors';
import { multer } from '../../lib/lazy-require';
import { expectedCsrf, formUser, pageUser } from './session';

// The web route table's shape: routes come in named groups, each carrying its guard chain once
// (as the API's actions-routes.ts). Before the group's guards every route gets the site's own:
// GET pages find their user (session, else Basic or token); POST forms parse their body, take a
// session only, refuse cross-site posts and check the CSRF token. A route added to any group
// gets them: nobody can forget the CSRF check of a new form.

/**
 * A multipart form (file uploads): its one file field and the largest file it takes, in bytes
 * (a function of the request: limits may come from the configuration).
 */
export type Multipart = { file: string; maxBytes: (req: Request) => number };
export type WebRoute = { method: 'get' | 'post'; path: string; chain: RequestHandler[]; multipart?: Multipart };
export type WebGroup = { name: string; guards: RequestHandler[]; routes: WebRoute[]; bare?: boolean };
/** A route as mounted: every handler it runs, in order. */
export type MountedRoute = WebRoute & { group: string };

type Handlers = (RequestHandler | readonly RequestHandler[])[];
export const get = (path: string, ...chain: Handlers): WebRoute => ({ method: 'get', path, chain: chain.flat() });
export const post = (path: string, ...chain: Handlers): WebRoute => ({ method: 'post', path, chain: chain.flat() });
/** A POST taking multipart/form-data: parsed (in memory, within the limit) before the CSRF check. */
export const postMultipart = (path: string, multipart: Multipart, ...chain: Handlers): WebRoute =>
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

/**
 * A multipart body into req.body (fields) and req.file (kept in memory: nothing is written
 * before the CSRF check passes, nor after it fails). A body that is not multipart parses as the
 * other forms do; multer's refusals (too large, an unexpected field) are the client's.
 */
function multipartBody(spec: Multipart): RequestHandler {
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return formBody[0]!(req, res, (err?: unknown) => (err ? next(err) : formBody[1]!(req, res, next)));
    const max = spec.maxBytes(req);
    const parse = multer()({ storage: multer().memoryStorage(), limits: { files: 1, fileSize: max, fields: 50, fieldSize: 64 << 10 } }).single(spec.file);
    parse(req, res, (err?: unknown) => {
      if (err instanceof multer().MulterError) {
        return next(err.code === 'LIMIT_FILE_SIZE' ? new PayloadTooLargeError(`The file is larger than ${max} bytes.`) : new BadRequestError(err.message));
      }
      next(err);
    });
  };
}

export const GET_CHAIN: readonly RequestHandler[] = pageUser;
export const POST_CHAIN: readonly RequestHandler[] = [...formBody, ...formUser, csrf];
const multipartChains = new WeakMap<Multipart, readonly RequestHandler[]>();

/** The site chain of a multipart form: the user's checks first (no body needed), then the body, then CSRF. */
export function multipartChain(spec: Multipart): readonly RequestHandler[] {
  let chain = multipartChains.get(spec);
  if (!chain) multipartChains.set(spec, (chain = [...formUser, multipartBody(spec), csrf]));
  return chain;
}

/** What the site runs before a route's group guards. */
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

export function mountGroups(router: Router, groups: WebGroup[]): void {
  for (const r of mountedRoutes(groups)) router[r.method](r.path, ...r.chain);
}
