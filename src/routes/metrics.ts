import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Hearth } from '../hearth';
import { enableProcessMetrics } from '../services/metrics/registry';
import { metricsScraper } from '../services/metrics/statistics';
import { apiRoutes } from './api/v1';
import type { ApiRoute } from './table';

/**
 * GET /metrics in Prometheus' text format, as Gitea's [metrics]: with a token set, only
 * `Authorization: Bearer <token>` may read it (401 otherwise, an empty body).
 */
export function metricsHandler(h: Hearth): RequestHandler {
  enableProcessMetrics();
  const scraper = metricsScraper(h.db);
  const want = Buffer.from(`Bearer ${h.config.metrics.token}`);
  return async (req, res) => {
    if (h.config.metrics.token) {
      const got = Buffer.from(req.get('Authorization') ?? '');
      if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) {
        res.status(401).end();
        return;
      }
    }
    const text = await scraper.scrape();
    res.setHeader('Cache-Control', 'no-store');
    res.type(scraper.contentType).send(text);
  };
}

// The API table's routes by their handlers: express gives the matched route's path relative
// to its (nested) router only, and the mount points hold the URL's values, not the pattern.
let byHandler: Map<unknown, ApiRoute[]> | null = null;
function apiRouteOf(req: Request): ApiRoute | undefined {
  if (!byHandler) {
    byHandler = new Map();
    for (const r of apiRoutes) {
      const last = r.chain[r.chain.length - 1];
      byHandler.set(last, [...(byHandler.get(last) ?? []), r]);
    }
  }
  const stack = (req.route as { stack?: { handle: unknown }[] } | undefined)?.stack ?? [];
  const candidates = byHandler.get(stack[stack.length - 1]?.handle) ?? [];
  const method = req.method.toLowerCase() === 'head' ? 'get' : req.method.toLowerCase();
  const suffix = String(req.route.path).replace(/:(\w+)/g, '{$1}');
  return candidates.find((r) => r.method === method && r.path.endsWith(suffix)) ?? candidates[0];
}

/**
 * The route pattern a request matched (`/api/v1/repos/{owner}/{repo}`), never the raw URL:
 * labels must stay few. Unmatched requests (404s, static files) share one label.
 */
export function routePattern(req: Request): string {
  if (!req.route) {
    // The package registries dispatch by hand, without express routes.
    if (req.originalUrl.startsWith('/api/packages/')) return '/api/packages/:owner/:type';
    return 'unmatched';
  }
  const api = req.originalUrl.startsWith('/api/v1/') ? apiRouteOf(req) : undefined;
  if (api) return `/api/v1${api.path}`;
  // Other routers are mounted at fixed prefixes; any segment holding a parameter's value is
  // put back as the parameter's name.
  const values = new Map(Object.entries(req.params ?? {}).map(([k, v]) => [String(v), k]));
  const prefix = req.baseUrl.split('/').map((seg) => {
    const name = values.get(safeDecode(seg));
    return name ? `:${name}` : seg;
  }).join('/');
  return `${prefix}${String(req.route.path)}`;
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
