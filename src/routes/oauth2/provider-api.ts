import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError, NotFoundError, OAuth2Error, TooManyRequestsError } from '../../lib/errors';
import { recordSignInFailure } from '../../services/audit/record';
import { signInLimiter } from '../../services/user/signin-limit';
import { publicJwk, signingKey } from '../../services/oauth2/signing-key';
import { OIDC_SCOPES } from '../../services/oauth2/scopes';
import {
  authenticateClient, exchangeCode, introspect, introspectingClient, isClientProofFailure, refreshTokens, verifyAccessToken, type TokenForm,
} from '../../services/oauth2/tokens';
import { userInfo } from '../../services/oauth2/userinfo';
import { credentialsOf } from '../middleware/auth';

// The OAuth2 provider's machine endpoints (Gitea's paths): discovery, the signing keys, the
// token endpoint, userinfo and introspection. Clients call them from other origins (browser
// apps with PKCE), with no cookie: CORS is open, and credentials are the client's (Basic or
// form) or a bearer token. Errors are RFC 6749 JSON: {"error", "error_description"}.

const enabled: RequestHandler = (req, _res, next) => {
  if (!req.ctx.config.oauth2.enabled) throw new NotFoundError();
  next();
};

/** Any origin: nothing here reads a cookie, so nothing here can be ridden by another site. */
const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
    return void res.status(204).end();
  }
  next();
};

const body: RequestHandler[] = [express.urlencoded({ extended: false, limit: '64kb' }), express.json({ limit: '64kb' })];

const noStore = (res: Response): Response => res.setHeader('Cache-Control', 'no-store').setHeader('Pragma', 'no-cache');

function discovery(req: Request, res: Response): void {
  const root = req.ctx.config.server.root_url;
  res.json({
    issuer: root.replace(/\/$/, ''),
    authorization_endpoint: `${root}login/oauth/authorize`,
    token_endpoint: `${root}login/oauth/access_token`,
    jwks_uri: `${root}login/oauth/keys`,
    userinfo_endpoint: `${root}login/oauth/userinfo`,
    introspection_endpoint: `${root}login/oauth/introspect`,
    response_types_supported: ['code'],
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
    scopes_supported: [...OIDC_SCOPES],
    claims_supported: [
      'aud', 'exp', 'iat', 'iss', 'sub', 'name', 'preferred_username', 'profile', 'picture', 'website', 'locale',
      'updated_at', 'email', 'email_verified', 'groups',
    ],
    code_challenge_methods_supported: ['plain', 'S256'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  });
}

async function keys(req: Request, res: Response): Promise<void> {
  res.json({ keys: [publicJwk(await signingKey(req.ctx.db, req.ctx.secret))] });
}

/** The form with the client's Basic credentials folded in; a body that disagrees with them is refused. */
function tokenForm(req: Request): TokenForm {
  const form = { ...((req.body ?? {}) as Record<string, unknown>) } as TokenForm & Record<string, unknown>;
  const header = req.headers.authorization;
  if (!header) return form;
  const creds = credentialsOf(req);
  if (creds?.kind !== 'basic') throw new OAuth2Error('invalid_request', 'cannot parse basic auth header');
  // RFC 6749 2.3.1: the id and secret are form-encoded before Basic; plain ones decode as themselves.
  const decode = (s: string) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } };
  const [id, secret] = [decode(creds.login), decode(creds.password)];
  if (form.client_id && form.client_id !== id) throw new OAuth2Error('invalid_request', 'client_id in request body inconsistent with Authorization header');
  if (form.client_secret && form.client_secret !== secret) throw new OAuth2Error('invalid_request', 'client_secret in request body inconsistent with Authorization header');
  return { ...form, client_id: id, client_secret: secret };
}

/**
 * POST /login/oauth/access_token. Client authentication is a sign-in: it passes the limiter,
 * and a wrong secret (or a PKCE verifier that fails, a public client's proof) counts as a failure.
 */
async function accessToken(req: Request, res: Response): Promise<void> {
  noStore(res);
  const form = tokenForm(req);
  const limiter = signInLimiter(req.ctx.db);
  const ip = req.ctx.actor.ip;
  const clientId = typeof form.client_id === 'string' ? form.client_id : '';
  await limiter.beforeAttempt(ip, clientId);
  const k = { db: req.ctx.db, config: req.ctx.config, secret: req.ctx.secret };
  try {
    const app = await authenticateClient(req.ctx.db, form);
    if (form.grant_type === 'authorization_code') return void res.json(await exchangeCode(k, app, form));
    if (form.grant_type === 'refresh_token') return void res.json(await refreshTokens(k, app, form));
    throw new OAuth2Error('unsupported_grant_type', 'Only refresh_token or authorization_code grant type is supported');
  } catch (err) {
    if (isClientProofFailure(err)) {
      limiter.recordFailure(ip, clientId);
      req.ctx.log.warn({ client: clientId, ip: req.ip, auth: 'oauth2' }, 'failed sign-in');
      await recordSignInFailure(req.ctx.db, clientId, ip, 'oauth2-client');
    }
    throw err;
  }
}

/** The OAuth2 caller of a Bearer token, or null (personal tokens are not OAuth2 sign-ins). */
async function bearerCaller(req: Request) {
  const creds = credentialsOf(req);
  return creds?.kind === 'token' ? verifyAccessToken(req.ctx.db, req.ctx.secret, creds.token.trim()) : null;
}

async function userinfo(req: Request, res: Response): Promise<void> {
  const caller = await bearerCaller(req);
  if (!caller) {
    res.setHeader('WWW-Authenticate', 'Bearer realm="hearth OAuth2"');
    return void res.status(401).type('text').send('no valid authorization');
  }
  res.json(await userInfo(req.ctx.db, req.ctx.config, caller));
}

/** RFC 7662: for a client that authenticates with Basic (its id and secret); `active` and the token's facts. */
async function introspectToken(req: Request, res: Response): Promise<void> {
  const creds = credentialsOf(req);
  const app = creds?.kind === 'basic' ? await introspectingClient(req.ctx.db, creds.login, creds.password) : null;
  if (!app) {
    res.setHeader('WWW-Authenticate', 'Basic realm="hearth OAuth2"');
    return void res.status(401).type('text').send('no valid authorization');
  }
  const token = (req.body as Record<string, unknown> | undefined)?.token;
  res.json(await introspect(req.ctx.db, req.ctx.secret, typeof token === 'string' ? token : ''));
}

/** RFC 6749 5.2 JSON for protocol errors; the limiter's 429 says when to come back. */
const oauthErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof TooManyRequestsError) {
    res.setHeader('Retry-After', String(err.retryAfter));
    return void res.status(429).json({ error: 'invalid_request', error_description: err.message });
  }
  if (err instanceof OAuth2Error) {
    if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="hearth OAuth2"');
    return void res.status(err.status).json({ error: err.code, error_description: err.message });
  }
  // Bodies express refused (malformed JSON, too large): the client's fault, said the same way.
  const status = (err as { status?: number }).status;
  if (!(err instanceof AppError) && status && status >= 400 && status < 500) {
    return void res.status(400).json({ error: 'invalid_request', error_description: (err as Error).message });
  }
  next(err);
};

export function oauth2ApiRouter(): Router {
  const router = express.Router();
  router.get('/.well-known/openid-configuration', enabled, cors, discovery);
  router.get('/login/oauth/keys', enabled, cors, keys);
  router.options(['/login/oauth/access_token', '/login/oauth/userinfo', '/login/oauth/introspect', '/login/oauth/keys'], enabled, cors);
  router.post('/login/oauth/access_token', enabled, cors, ...body, accessToken);
  router.get('/login/oauth/userinfo', enabled, cors, userinfo);
  router.post('/login/oauth/userinfo', enabled, cors, userinfo);
  router.post('/login/oauth/introspect', enabled, cors, ...body, introspectToken);
  router.use(oauthErrors);
  return router;
}
