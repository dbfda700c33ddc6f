import crypto from 'node:crypto';
import express, { type RequestHandler, type Router } from 'express';
import { ForbiddenError } from '../../lib/errors';
import { expectedCsrf, formUser, pageUser } from './session';

// The web route table's shape: routes come in named groups, each carrying its guard chain once
// (as the API's actions-routes.ts). Before the group's guards every route gets the site's own:
// GET pages find their user (session, else Basic or token); POST forms parse their body, take a
// session only, refuse cross-site posts and check the CSRF token. A route added to any group
// gets them: nobody can forget the CSRF check of a new form.

export type WebRoute = { method: 'get' | 'post'; path: string; chain: RequestHandler[] };
export type WebGroup = { name: string; guards: RequestHandler[]; routes: WebRoute[]; bare?: boolean };
/** A route as mounted: every handler it runs, in order. */
export type MountedRoute = WebRoute & { group: string };

type Handlers = (RequestHandler | readonly RequestHandler[])[];
export const get = (path: string, ...chain: Handlers): WebRoute => ({ method: 'get', path, chain: chain.flat() });
export const post = (path: string, ...chain: Handlers): WebRoute => ({ method: 'post', path, chain: chain.flat() });

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

/** Every route of the groups with its whole chain, in mount order. */
export function mountedRoutes(groups: WebGroup[]): MountedRoute[] {
  return groups.flatMap((g) => g.routes.map((r) => {
    const site = g.bare ? [] : r.method === 'post' ? POST_CHAIN : GET_CHAIN;
    return { group: g.name, method: r.method, path: r.path, chain: [...site, ...g.guards, ...r.chain] };
  }));
}

export function mountGroups(router: Router, groups: WebGroup[]): void {
  for (const r of mountedRoutes(groups)) router[r.method](r.path, ...r.chain);
}
