import type { RequestHandler, Router } from 'express';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type RouteMeta = { tag: string; operationId: string; summary: string };
export type ApiRoute = RouteMeta & { method: Method; path: string; chain: RequestHandler[] };

/** One row of the route table: path in the reference's `{param}` form, guards then the handler. */
export const route = (method: Method) => (
  path: string, meta: [tag: string, operationId: string, summary: string], ...chain: RequestHandler[]
): ApiRoute => ({ method, path, tag: meta[0], operationId: meta[1], summary: meta[2], chain });

export const get = route('get');
export const post = route('post');
export const put = route('put');
export const patch = route('patch');
export const del = route('delete');

export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

export function mount(router: Router, routes: readonly ApiRoute[]): void {
  for (const r of routes) router[r.method](expressPath(r.path), ...r.chain);
}
