import crypto from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import type { Hearth } from '../hearth';
import { readAsset } from '../lib/assets';
import { apiRoutes } from './api/v1';
import { authenticate, jobTokenLimits, passwordCurrent, sudo } from './middleware/auth';
import { apiNotFound, errorHandler } from './middleware/errors';
import { healthz } from './health';
import { swaggerSpec, swaggerUiPage } from './swagger';
import { lazyHandler, lazyModule } from './lazy';
import { markFormBody } from './body-binding';
import { mount } from './table';
import { setBackgroundLogger } from '../lib/background-log';
import { observeRequest } from '../services/metrics/registry';
import { metricsHandler, routePattern } from './metrics';
import { runAsActor, type AuditActor } from '../services/audit/actor';

/**
 * Builds the request context once per request, and logs one access line: at info with
 * [log] access, else at debug. With [metrics] enabled, times the request by route pattern.
 */
function context(h: Hearth): RequestHandler {
  const access = h.config.log.access;
  const timed = h.config.metrics.enabled;
  return (req, res, next) => {
    const requestId = req.get('X-Request-Id')?.slice(0, 64) || crypto.randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const actor: AuditActor = { id: 0, name: '', ip: req.ip ?? '' };
    req.ctx = {
      requestId, h, db: h.db, config: h.config, log: h.log, secret: h.secret,
      doer: null, signer: null, auth: 'none', scopes: null, contextUser: null, repo: null, org: null, actor,
    };
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (timed) observeRequest(req.method, routePattern(req), res.statusCode, ms / 1000);
      // The address read at the start: a response that ends after its socket was destroyed (a
      // body refused while it was still arriving) has none left, and req.ip would throw here.
      const line = { requestId, method: req.method, url: req.originalUrl, status: res.statusCode, ms, user: req.ctx.doer?.name, ip: actor.ip };
      if (access) h.log.info(line, 'request');
      else h.log.debug(line, 'request');
    });
    runAsActor(actor, next);
  };
}

/**
 * LFS (`/{owner}/{repo}/info/lfs/...`) and smart HTTP (`.../info/refs`, `.../git-*-pack`) answer
 * no other path: the rest skip their routers. A router that matches nothing hands the request on
 * at the event loop's next turn (express's router), and every page went through both.
 */
const GIT_PATH = /^\/[^/]+\/[^/]+\/(?:info|git-upload-pack|git-receive-pack)(?:\/|$)/i;
const gitPathsOnly = (handler: RequestHandler): RequestHandler => (req, res, next) => (GIT_PATH.test(req.path) ? handler(req, res, next) : next());

/** Gitea answers API calls from any origin; credentials travel in headers, not cookies. */
const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Link, X-Total-Count');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', req.get('Access-Control-Request-Headers') ?? 'Authorization, Content-Type, Sudo');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
};

const MAX_JSON_BODY = 32 * 1024 * 1024;

/** JSON bodies whatever their declared type (clients often omit it), except uploads. */
const jsonBody = (limit: number) => express.json({
  limit,
  type: (req) => {
    const type = String(req.headers['content-type'] ?? '');
    // A release asset may be the raw body, whatever its declared type (Gitea 1.25).
    if (req.method === 'POST' && /\/releases\/\d+\/assets\/?(?:\?|$)/.test(req.url ?? '')) return false;
    return !/^multipart\/|^application\/octet-stream|^application\/x-www-form-urlencoded/i.test(type);
  },
});

/** Form bodies as Gitea binds them: each field's text, typed later by the route's schema. */
const formBody = (limit: number) => [express.urlencoded({ extended: false, limit, parameterLimit: 10_000 }), markFormBody];

export function createApp(h: Hearth): Express {
  setBackgroundLogger(h.log);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(context(h));

  const api = express.Router();
  // The one text/plain endpoint: its body is the markdown itself, not JSON.
  api.post('/markdown/raw', express.text({ type: () => true, limit: MAX_JSON_BODY }));
  // Inboxes check the body's signed Digest: they keep it as the bytes that were sent.
  api.post('/activitypub/user-id/:id/inbox', express.raw({ type: () => true, limit: h.config.federation.max_size * 1024 * 1024 }));
  api.use(cors, jsonBody(MAX_JSON_BODY), ...formBody(MAX_JSON_BODY), authenticate(), jobTokenLimits(), passwordCurrent(), sudo());
  mount(api, apiRoutes);
  api.use(apiNotFound);
  app.use('/api/v1', api);

  app.get('/api/healthz', healthz);
  // What most starts never serve loads with its first request: git and LFS over HTTP, the
  // package registries, artifacts, avatars (each router keeps its place in the order).
  app.get('/.well-known/nodeinfo', lazyHandler(() => import('./api/v1/federation').then((m) => m.wellKnownNodeInfo)));
  // connect-RPC and the protobuf messages load with the first runner request.
  app.use('/api/actions', lazyHandler(() => import('./actions-runner').then((m) => m.actionsRunnerRouter(h))));
  app.use('/twirp/github.actions.results.api.v1.ArtifactService', lazyHandler(() => import('./actions-artifacts').then((m) => m.actionsArtifactsRouter(h))));
  app.use('/api/actions_pipeline', lazyHandler(() => import('./actions-artifacts-v3').then((m) => m.actionsArtifactsV3Router(h))));
  if (h.config.metrics.enabled) app.get('/metrics', metricsHandler(h));
  // For `hearth serv` and `hearth keys` under the system sshd; loaded with their first call.
  app.use('/api/internal/ssh', lazyHandler(() => import('./internal-ssh').then((m) => m.internalSshRouter(h))));
  app.use('/api/packages', lazyHandler(() => import('./packages/index').then((m) => m.packagesRouter())));
  // The container registry's /v2 routes go here too (before the web catch-alls).
  app.use('/v2', lazyHandler(() => import('./packages/container').then((m) => m.containerRouter())));
  app.use(gitPathsOnly(lazyHandler(() => import('./lfs').then((m) => m.lfsRouter()))));
  app.use(gitPathsOnly(lazyHandler(() => import('./git-http').then((m) => m.gitRouter(h)))));
  const avatars = lazyModule(() => import('./avatar'));
  app.get('/avatars/:hash', avatars.avatar);
  app.get('/repo-avatars/:hash', avatars.repoAvatar);
  if (h.config.api.enable_swagger) mountSwagger(app, h);
  // The OAuth2 provider's JSON endpoints (its consent pages are web routes); loaded on first use.
  app.all(['/.well-known/openid-configuration', '/login/oauth/:endpoint'], lazyHandler(() => import('./oauth2/provider-api').then((m) => m.oauth2ApiRouter())));
  // Last: `/{owner}/{repo}` pages must not shadow the API, git, avatar or swagger routes. The
  // pages' code loads with the first page asked for.
  app.use(lazyHandler(() => import('./web/index').then((m) => m.webRouter())));
  app.use(errorHandler);
  return app;
}

function mountSwagger(app: Express, h: Hearth): void {
  app.get('/swagger.v1.json', swaggerSpec(apiRoutes, () => h.config.server.root_url));
  app.get('/api/swagger', (_req, res) => {
    res.type('html').send(swaggerUiPage(`${h.config.server.root_url}swagger.v1.json`));
  });
  app.get('/api/swagger/assets/:name', (req, res, next) => {
    const data = readAsset(String(req.params.name));
    if (!data) return next();
    res.type(String(req.params.name).endsWith('.css') ? 'css' : 'js');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.send(data);
  });
}
