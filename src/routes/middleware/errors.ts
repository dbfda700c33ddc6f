import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../lib/errors';

export function apiErrorBody(req: Request, message: string) {
  return { message, url: `${req.ctx?.config.server.root_url ?? '/'}api/swagger` };
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
  if (err instanceof AppError) return sendError(req, res, err.status, err.message);
  const status = err.status ?? err.statusCode;
  if (status && status >= 400 && status < 500 && err.expose !== false) {
    const message = err.type === 'entity.parse.failed' ? `invalid JSON body: ${err.message}` : err.message;
    return sendError(req, res, status, message);
  }
  req.ctx?.log.error({ err, requestId: req.ctx.requestId, path: req.path }, 'internal error');
  sendError(req, res, 500, `internal error (request id ${req.ctx?.requestId ?? 'unknown'})`);
};
