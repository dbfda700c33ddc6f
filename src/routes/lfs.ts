import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { toLfsLock } from '../convert/lfs-lock';
import { AppError, BadRequestError, NotFoundError, RangeNotSatisfiableError, UnauthorizedError, UnsupportedMediaTypeError } from '../lib/errors';
import { lfsTokenCaller } from '../services/lfs/ssh-token';
import { redirectDirect } from './stored-send';
import { blobKey } from '../services/packages/blob-store';
import { batch, downloadObject, LFS_MEDIA_TYPE, lfsRepo, uploadObject, verifyObject, type BatchRequest } from '../services/lfs/objects';
import { createLock, listLocks, LockExistsError, unlock, verifyLocks, type LockQuery } from '../services/lfs/locks';
import type { RepoAccess } from '../services/repo/repos';
import { authenticate } from './middleware/auth';
import { errorHeaders } from './middleware/errors';

// Git LFS at /{owner}/{repo}(.git)/info/lfs, as Gitea's routes: the batch API, basic
// transfers, verify and the locks API. Answers and errors are `application/vnd.git-lfs+json`.

const json = express.json({ type: () => true, limit: '10mb' });
/** Verify decodes any JSON value (Gitea's decoder takes `null` as an empty pointer: 422, not 400). */
const anyJson = express.json({ type: () => true, limit: '10mb', strict: false });

/** Gitea's CheckAcceptMediaType: JSON calls must accept the LFS media type. */
function acceptsLfs(req: Request): void {
  if ((req.get('Accept') ?? '').split(';')[0]!.trim() !== LFS_MEDIA_TYPE) throw new UnsupportedMediaTypeError();
}

/** Requests signed in by a git-lfs-authenticate token (SSH): the one repository it opens. */
const tokenRepo = new WeakMap<Request, number>();

async function repoOf(req: Request, write: boolean): Promise<RepoAccess> {
  const access = await lfsRepo(req.ctx.h, req.ctx, String(req.params.owner), String(req.params.repo), write);
  const only = tokenRepo.get(req);
  if (only !== undefined && only !== access.repo.id) throw new NotFoundError();
  return access;
}

/**
 * The repository of a locks call, as Gitea's lock handlers: without the access they need, the
 * caller (anonymous or not) is asked to sign in with one message per handler, a 401.
 */
async function lockRepo(req: Request, write: boolean, message: string): Promise<RepoAccess> {
  if (!req.ctx.doer) throw new UnauthorizedError(message);
  try {
    return await repoOf(req, write);
  } catch (err) {
    if (err instanceof AppError && err.status === 403) throw new UnauthorizedError(message);
    throw err;
  }
}

/** Gitea registers no LFS routes at all when its LFS server is off: 404 before anything else. */
const lfsEnabled: RequestHandler = (req, _res, next) => {
  if (!req.ctx.config.server.lfs_start_server) throw new NotFoundError();
  next();
};

/** `Authorization: Bearer` with an LFS token from git-lfs-authenticate; any other credentials as everywhere. */
function lfsAuthenticate(): RequestHandler {
  const others = authenticate();
  return async (req, res, next) => {
    const bearer = /^bearer\s+(\S+)$/i.exec(req.get('Authorization') ?? '')?.[1];
    const granted = bearer ? await lfsTokenCaller(req.ctx.h, bearer) : null;
    if (!granted) return others(req, res, next);
    req.ctx.doer = granted.user;
    req.ctx.signer = granted.user;
    req.ctx.auth = 'token';
    req.ctx.scopes = granted.scopes;
    Object.assign(req.ctx.actor, { id: granted.user.id, name: granted.user.name });
    tokenRepo.set(req, granted.repoId);
    next();
  };
}

const send = (res: Response, status: number, body: unknown) => {
  res.status(status).type(LFS_MEDIA_TYPE).send(JSON.stringify(body));
};

function signedIn(req: Request) {
  if (!req.ctx.doer) throw new UnauthorizedError('authentication required');
  return req.ctx.doer;
}

function lockQuery(req: Request, body: Record<string, unknown> = {}): LockQuery {
  const int = (v: unknown) => (Number.isSafeInteger(Number(v)) ? Math.max(0, Number(v)) : 0);
  const id = req.query.id;
  return {
    id: typeof id === 'string' ? id : undefined,
    path: typeof req.query.path === 'string' ? req.query.path : undefined,
    cursor: int(req.query.cursor ?? body.cursor),
    // Gitea's [lfs] LOCKS_PAGING_NUM: 50 at most a page; 0 lists them all.
    limit: Math.min(int(req.query.limit ?? body.limit), 50),
  };
}

/** POST objects/batch: read access to download, write access to upload. */
async function postBatch(req: Request, res: Response): Promise<void> {
  acceptsLfs(req);
  const body = (req.body ?? {}) as BatchRequest;
  if ((body.operation !== 'upload' && body.operation !== 'download') || !Array.isArray(body.objects)) throw new BadRequestError('Bad Request');
  const access = await repoOf(req, body.operation === 'upload');
  send(res, 200, { transfer: 'basic', objects: await batch(req.ctx.h, access, body, req.get('Authorization') ?? '', req.ctx.doer) });
}

/** PUT objects/{oid}/{size}: the body streamed into the store. */
async function putObject(req: Request, res: Response): Promise<void> {
  const access = await repoOf(req, true);
  const size = /^\d+$/.test(String(req.params.size)) ? Number(req.params.size) : -1;
  await uploadObject(req.ctx.h, access, { oid: String(req.params.oid), size }, req, req.ctx.doer);
  res.status(200).end();
}

/** GET objects/{oid}: the bytes, from a byte offset with Range (resumed downloads), as Gitea. */
async function getObject(req: Request, res: Response): Promise<void> {
  const access = await repoOf(req, false);
  const obj = await downloadObject(req.ctx.h, access, String(req.params.oid));
  if (await redirectDirect(req, res, req.ctx.config, req.ctx.h.blobs, blobKey(obj.oid), { contentType: 'application/octet-stream' })) return;
  const range = /^bytes=(\d+)-(\d*)/.exec(req.get('Range') ?? '');
  let start = 0;
  let end = obj.size - 1;
  if (range) {
    start = Number(range[1]);
    if (start >= obj.size) throw new RangeNotSatisfiableError('Requested Range Not Satisfiable');
    if (range[2] && Number(range[2]) >= start && Number(range[2]) < end) end = Number(range[2]);
    res.setHeader('Content-Range', `bytes ${start}-${end}/${obj.size}`);
    res.setHeader('Access-Control-Expose-Headers', 'Content-Range');
  }
  res.status(range ? 206 : 200).setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
  if (req.method === 'HEAD' || obj.size === 0) { res.end(); return; }
  // A client that goes away mid-download is no server error.
  await pipeline(obj.open({ start, end }), res).catch(() => res.destroy());
}

async function postVerify(req: Request, res: Response): Promise<void> {
  acceptsLfs(req);
  await verifyObject(req.ctx.h, await repoOf(req, true), req.body);
  send(res, 200, { message: 'OK' });
}

async function getLocks(req: Request, res: Response): Promise<void> {
  acceptsLfs(req);
  const found = await listLocks(req.ctx.db, await lockRepo(req, false, 'You must have pull access to list locks'), lockQuery(req));
  send(res, 200, { locks: found.locks.map(toLfsLock), ...(found.next ? { next_cursor: found.next } : {}) });
}

async function postLock(req: Request, res: Response): Promise<void> {
  acceptsLfs(req);
  const access = await lockRepo(req, true, 'You must have push access to create locks');
  const body = (req.body ?? {}) as { path?: unknown };
  if (typeof body.path !== 'string') throw new BadRequestError('Bad Request');
  send(res, 201, { lock: toLfsLock(await createLock(req.ctx.db, access, signedIn(req), body.path)) });
}

async function postLocksVerify(req: Request, res: Response): Promise<void> {
  acceptsLfs(req);
  const access = await lockRepo(req, true, 'You must have push access to verify locks');
  const found = await verifyLocks(req.ctx.db, access, signedIn(req), lockQuery(req, req.body as Record<string, unknown>));
  send(res, 200, { ours: found.ours.map(toLfsLock), theirs: found.theirs.map(toLfsLock), ...(found.next ? { next_cursor: found.next } : {}) });
}

async function postUnlock(req: Request, res: Response): Promise<void> {
  acceptsLfs(req);
  const access = await lockRepo(req, true, 'You must have push access to delete locks');
  const id = /^\d+$/.test(String(req.params.id)) ? Number(req.params.id) : 0;
  const force = (req.body as { force?: unknown } | undefined)?.force === true;
  send(res, 200, { lock: toLfsLock(await unlock(req.ctx.db, access, signedIn(req), id, force)) });
}

export function lfsRouter(): Router {
  const router = express.Router();
  const at = (p: string) => `/:owner/:repo/info/lfs${p}`;
  router.use(at(''), lfsEnabled, lfsAuthenticate());
  router.post(at('/objects/batch'), json, postBatch);
  router.put(at('/objects/:oid/:size'), putObject);
  router.get(at('/objects/:oid'), getObject);
  router.get(at('/objects/:oid/:filename'), getObject);
  router.post(at('/verify'), anyJson, postVerify);
  router.get(at('/locks'), getLocks);
  router.post(at('/locks'), json, postLock);
  router.post(at('/locks/verify'), json, postLocksVerify);
  router.post(at('/locks/:id/unlock'), json, postUnlock);
  router.use(at(''), lfsErrors);
  return router;
}

/** LFS clients read `{message}`; a 401 asks for credentials, as Gitea's `Basic realm="gitea-lfs"`. */
const lfsErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof LockExistsError) return send(res, 409, { lock: toLfsLock(err.existing), message: err.message });
  if (err instanceof AppError) {
    errorHeaders(res, err);
    if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="gitea-lfs"');
    return send(res, err.status, { message: err.message });
  }
  if ((err as { type?: string }).type === 'entity.parse.failed') return send(res, 400, { message: 'Bad Request' });
  req.ctx.log.error({ err, requestId: req.ctx.requestId }, 'lfs error');
  send(res, 500, { message: 'Internal Server Error' });
};
