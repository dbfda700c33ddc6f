import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { isPackageToken, verifyPackageToken } from '../../services/packages/auth-token';
import { packageAccessMode, resolvePackageOwner } from '../../services/packages/access';
import { SignInProhibitedError } from '../../services/user/auth';
import { authenticate, passwordCurrent } from '../middleware/auth';
import { assertPackageAccess, PACKAGE_REALM } from './access';
import { errorHeaders } from '../middleware/errors';

// /api/packages/{owner}/{type}/... (Gitea's routers/api/packages/api.go): its own authentication
// (Basic user:password or user:token, `Authorization: token|bearer`), the owner (a user or an
// organization, 404 when missing) in req.ctx.contextUser, the caller's mode in
// res.locals.packageAccess, then the type's registry. The container registry is also served at
// /v2 at the root: mount it in src/routes/app.ts next to packagesRouter.

export type PackageRegistry = {
  /** Routes relative to /api/packages/{owner}/{type}. */
  router: Router;
  /** How this registry answers an error (default: plain text, as Gitea's generic registry). */
  replyError?: (req: Request, res: Response, status: number, message: string) => void;
  /** true: the registry checks read access itself (default: every request needs read). */
  ownReadCheck?: boolean;
};

/**
 * The registries by type, each module loaded with its type's first request (no registry code on
 * the start-up path): add one with ONE line, e.g. `npm: () => import('./npm').then((m) => m.npmRegistry),`.
 */
export const REGISTRIES: Record<string, () => Promise<PackageRegistry>> = {
  generic: () => import('./generic').then((m) => m.genericRegistry),
  npm: () => import('./npm').then((m) => m.npmRegistry),
  maven: () => import('./maven').then((m) => m.mavenRegistry),
  pypi: () => import('./pypi').then((m) => m.pypiRegistry),
  cargo: () => import('./cargo').then((m) => m.cargoRegistry),
  go: () => import('./go').then((m) => m.goRegistry),
  composer: () => import('./composer').then((m) => m.composerRegistry),
  rubygems: () => import('./rubygems').then((m) => m.rubygemsRegistry),
  helm: () => import('./helm').then((m) => m.helmRegistry),
  pub: () => import('./pub').then((m) => m.pubRegistry),
  vagrant: () => import('./vagrant').then((m) => m.vagrantRegistry),
  swift: () => import('./swift').then((m) => m.swiftRegistry),
  chef: () => import('./chef').then((m) => m.chefRegistry),
  debian: () => import('./debian').then((m) => m.debianRegistry),
  rpm: () => import('./rpm').then((m) => m.rpmRegistry),
  'rpm.repo': () => import('./rpm').then((m) => m.rpmRepoFileRegistry),
  cran: () => import('./cran').then((m) => m.cranRegistry),
  arch: () => import('./arch').then((m) => m.archRegistry),
  alpine: () => import('./alpine').then((m) => m.alpineRegistry),
  conda: () => import('./conda').then((m) => m.condaRegistry),
  nuget: () => import('./nuget').then((m) => m.nugetRegistry),
  conan: () => import('./conan').then((m) => m.conanRegistry),
};

const loaded = new Map<string, Promise<PackageRegistry>>();
/** The registry of a type, loading its module once (null: no registry serves the type). */
function registryOf(type: string): Promise<PackageRegistry> | null {
  if (!Object.hasOwn(REGISTRIES, type)) return null;
  let registry = loaded.get(type);
  // A module that failed to load is tried again with the next request.
  if (!registry) loaded.set(type, (registry = REGISTRIES[type]!().catch((err: unknown) => { loaded.delete(type); throw err; })));
  return registry;
}

const plainText = (_req: Request, res: Response, status: number, message: string) => {
  res.status(status).type('text/plain; charset=utf-8').send(message);
};

/** A registry-issued bearer token (conan's users/authenticate) signs the caller in; others go to authenticate(). */
const packageToken: RequestHandler = async (req, _res, next) => {
  const m = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m || !isPackageToken(m[1]!)) return next();
  const found = await verifyPackageToken(req.ctx.h, m[1]!);
  if (!found) throw new UnauthorizedError();
  delete req.headers.authorization;
  req.ctx.doer = found.user;
  req.ctx.signer = found.user;
  req.ctx.auth = 'token';
  req.ctx.scopes = found.scopes;
  next();
};

const enabled: RequestHandler = (req, _res, next) => {
  if (!req.ctx.config.packages.enabled) throw new NotFoundError();
  next();
};

/** Owner and access mode, then the registry of the type (404 for a type no registry serves). */
const dispatch: RequestHandler = async (req, res, next) => {
  const registry = await registryOf(String(req.params.type));
  res.locals.packageRegistry = registry;
  const owner = await resolvePackageOwner(req.ctx.db, String(req.params.owner));
  if (!registry) throw new NotFoundError();
  req.ctx.contextUser = owner;
  res.locals.packageAccess = await packageAccessMode(req.ctx.db, owner, req.ctx.doer);
  if (!registry.ownReadCheck) assertPackageAccess(req, res, 'read');
  registry.router(req, res, next);
};

const errors: ErrorRequestHandler = (thrown: Error, req, res, next) => {
  if (res.headersSent || !(thrown instanceof AppError)) return next(thrown);
  // Gitea's registries fail the sign-in itself of an inactive or prohibited account: 401, so
  // clients ask for other credentials (the API answers 403).
  const err = thrown instanceof SignInProhibitedError ? new UnauthorizedError('Failed to authenticate user') : thrown;
  const registry = res.locals.packageRegistry as PackageRegistry | null | undefined;
  errorHeaders(res, err);
  if (err.status === 401) res.setHeader('WWW-Authenticate', PACKAGE_REALM);
  (registry?.replyError ?? plainText)(req, res, err.status, err.message);
};

/** Mounted at /api/packages. */
export function packagesRouter(): Router {
  const router = express.Router();
  router.use(enabled, packageToken, authenticate(), passwordCurrent());
  router.use('/:owner/:type', dispatch);
  router.use((_req, _res) => { throw new NotFoundError(); });
  router.use(errors);
  return router;
}
