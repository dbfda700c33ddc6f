import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError, NotFoundError } from '../../lib/errors';
import { packageAccessMode, resolvePackageOwner } from '../../services/packages/access';
import { createRegistryToken, GHOST_ID, registryTokenUser, verifyRegistryToken } from '../../services/packages/container/token';
import { OCI, OciError, ociCodeOf } from '../../services/packages/container/errors';
import { listCatalog } from '../../services/packages/container/tags';
import { authenticate, passwordCurrent } from '../middleware/auth';
import { assertPackageAccess } from './access';
import { IMAGE_ROUTES, type ImageRoute } from './container-routes';
import { errorHeaders } from '../middleware/errors';

// Gitea's container registry (routers/api/packages/container, OCI distribution 1.1), served at
// /v2 at the root: its own authentication (a bearer token from /v2/token, or Basic / access
// tokens), the Bearer challenge on 401, and OCI JSON errors.

const challenge = (req: Request) =>
  `Bearer realm="${req.ctx.config.server.root_url}v2/token",service="container_registry",scope="*"`;

/** Who is calling: a registry token (the ghost for anonymous ones), else the usual credentials. */
const registryAuth: RequestHandler = async (req, res, next) => {
  if (!req.ctx.config.packages.enabled) throw new NotFoundError();
  res.setHeader('Docker-Distribution-Api-Version', 'registry/2.0');
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const claims = bearer ? verifyRegistryToken(req.ctx.secret, bearer[1]!) : null;
  if (!claims) return authenticate()(req, res, next);
  if (claims.uid === GHOST_ID) { res.locals.ghost = true; return next(); }
  const user = await registryTokenUser(req.ctx.db, claims);
  if (!user) throw OCI.unauthorized();
  Object.assign(req.ctx, { doer: user, signer: user, auth: 'token', scopes: claims.scopes });
  next();
};

/** Gitea's ReqContainerAccess: a signed-in caller or the ghost of an anonymous token. */
const reqContainerAccess: RequestHandler = (req, res, next) => {
  if (!req.ctx.doer && !res.locals.ghost) throw OCI.unauthorized();
  next();
};

/** GET /v2/token: a token for the caller (the ghost when anonymous), as Gitea's Authenticate. */
function token(req: Request, res: Response): void {
  const scopes = req.ctx.scopes;
  if (scopes && !scopes.all && !scopes.granted.has('package')) throw OCI.unauthorized();
  res.json({ token: createRegistryToken(req.ctx.secret, req.ctx.doer?.id ?? GHOST_ID, scopes) });
}

const paging = (req: Request) => ({
  n: Math.max(0, Number.parseInt(String(req.query.n ?? ''), 10) || 0), last: String(req.query.last ?? ''),
});

async function catalog(req: Request, res: Response): Promise<void> {
  const { n, last } = paging(req);
  const repositories = await listCatalog(req.ctx.db, req.ctx.doer, n, last);
  if (n && repositories.length === n) res.setHeader('Link', `</v2/_catalog?n=${n}&last=${encodeURIComponent(repositories.at(-1)!)}>; rel="next"`);
  res.json({ repositories });
}

const IMAGE_NAME = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
const PATH = /^\/([^/]+)\/(.+?)\/(?:blobs\/uploads\/?([^/]*)|blobs\/([^/]+)|manifests\/([^/]+)|(tags)\/list)$/;

/** `/{owner}/{image}/...`: the owner, the caller's mode (read for GET/HEAD, else write), the handler. */
const imageRoutes: RequestHandler = async (req, res, next) => {
  const m = PATH.exec(req.path);
  if (!m) return next();
  const [, owner, image, uploadId, blobDigest, reference, tags] = m;
  const kind: ImageRoute['kind'] = uploadId !== undefined ? (uploadId ? 'upload' : 'uploads') : blobDigest ? 'blob' : reference ? 'manifest' : tags ? 'tags' : 'uploads';
  const handler = IMAGE_ROUTES[kind][req.method as 'GET'];
  if (!handler) return next();
  if (!IMAGE_NAME.test(decodeURIComponent(image!))) throw OCI.nameInvalid();
  req.ctx.contextUser = await resolvePackageOwner(req.ctx.db, decodeURIComponent(owner!)).catch(() => { throw OCI.nameUnknown(); });
  res.locals.packageAccess = await packageAccessMode(req.ctx.db, req.ctx.contextUser, req.ctx.doer);
  assertPackageAccess(req, res, req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write');
  const param = decodeURIComponent(uploadId || blobDigest || reference || '');
  await handler(req, res, { owner: req.ctx.contextUser, image: decodeURIComponent(image!) }, param);
};

const errors: ErrorRequestHandler = (err: Error, req, res, next) => {
  if (res.headersSent || !(err instanceof AppError)) return next(err);
  errorHeaders(res, err);
  if (err.status === 401) res.setHeader('WWW-Authenticate', challenge(req));
  const detail = err instanceof OciError ? err.detail : undefined;
  res.status(err.status).json({ errors: [{ code: ociCodeOf(err), message: err.message, ...(detail === undefined ? {} : { detail }) }] });
};

/** Mounted at /v2 at the root (Gitea serves the registry only there). */
export function containerRouter(): Router {
  const router = express.Router({ strict: false });
  router.use(registryAuth, passwordCurrent());
  router.get('/token', token);
  router.post('/token', () => { throw new NotFoundError(); });
  router.use(reqContainerAccess);
  router.get('/', (_req, res) => { res.status(200).end(); });
  router.get('/_catalog', catalog);
  router.use(imageRoutes);
  router.use(() => { throw new NotFoundError(); });
  router.use(errors);
  return router;
}
