import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError, TooManyRequestsError } from '../../lib/errors';

export function apiErrorBody(req: Request, message: string) {
  return { message, url: `${req.ctx?.config.server.root_url ?? '/'}api/swagger` };
}

/** Headers some errors carry beside their status (the wait of a 429). */
export function errorHeaders(res: Response, err: AppError): void {
  if (err instanceof TooManyRequestsError) res.setHeader('Retry-After', String(err.retryAfter));
}

export function sendError(req: Request, res: Response, status: number, message: string): void {
  if (status === 401 && !res.getHeader('WWW-Authenticate') && !req.headers.authorization) {
    res.setHeader('WWW-Authenticate', 'Basic realm="Hearth"');
  }
  res.status(status).json(apiErrorBody(req, message));
}

/** Unknown routes under /api/v1. */
export const apiNotFound: RequestHandler = (req, res) => sendError(req, res, 404, 'The target couldn\'t be found.');

type HttpishError = Error & { status?: number; statusCode?: number; type?: string; expose?: boolean };

/** Domain errors map to their status; body-parser errors keep theirs; anything else is a logged 500. */
export const errorHandler: ErrorRequestHandler = (err: HttpishError, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof AppError) {
    errorHeaders(res, err);
    return sendError(req, res, err.status, err.message);
  }
  const status = err.status ?? err.statusCode;
  if (status && status >= 400 && status < 500 && err.expose !== false) {
    const message = err.type === 'entity.parse.failed' ? `invalid JSON body: ${err.message}` : err.message;
    return sendError(req, res, status, message);
  }
  const storage = storageFailure(err);
  if (storage) {
    // The operator's problem, not a bug: told as such to the log and to the client, rather than
    // as a 500 that reads like a crash.
    req.ctx?.log.error({ err, requestId: req.ctx.requestId, path: req.path }, `request failed: ${storage.log}`);
    return sendError(req, res, storage.status, storage.message);
  }
  req.ctx?.log.error({ err, requestId: req.ctx.requestId, path: req.path }, 'internal error');
  sendError(req, res, 500, `internal error (request id ${req.ctx?.requestId ?? 'unknown'})`);
};

const STORAGE: Record<string, { status: number; message: string; log: string }> = {
  ENOSPC: { status: 507, message: 'insufficient storage: the server\'s disk is full', log: 'the disk of the data directory is full (ENOSPC)' },
  EDQUOT: { status: 507, message: 'insufficient storage: the server\'s disk quota is used up', log: 'the disk quota of the data directory is used up (EDQUOT)' },
  EROFS: { status: 503, message: 'the server\'s storage is read-only', log: 'the data directory is on a read-only file system (EROFS)' },
  SQLITE_FULL: { status: 507, message: 'insufficient storage: the server\'s disk is full', log: 'the disk of the database is full (SQLITE_FULL)' },
  SQLITE_READONLY: { status: 503, message: 'the server\'s storage is read-only', log: 'the database cannot be written (SQLITE_READONLY)' },
};

/** A write refused by the file system (full disk, quota, read-only), here or in the error's cause. */
function storageFailure(err: Error & { code?: string; cause?: unknown }): (typeof STORAGE)[string] | undefined {
  for (let e: (Error & { code?: string; cause?: unknown }) | undefined = err, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code && STORAGE[e.code]) return STORAGE[e.code];
  }
  return undefined;
}
