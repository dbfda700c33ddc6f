import zlib from 'node:zlib';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { Hearth } from '../hearth';
import { serviceHeader, spawnService } from '../git/transport';
import { AppError, ForbiddenError, NotFoundError, UnsupportedMediaTypeError } from '../lib/errors';
import { runGitService } from '../services/git-transport/run';
import { callerTarget, type GitTarget } from '../services/git-transport/target';
import { countGitBytes, countGitRequest } from '../services/metrics/registry';
import { authenticate } from './middleware/auth';
import { errorHeaders } from './middleware/errors';

type HttpService = 'upload-pack' | 'receive-pack';

const serviceOf = (value: unknown): HttpService | null =>
  value === 'git-upload-pack' ? 'upload-pack' : value === 'git-receive-pack' ? 'receive-pack' : null;

/**
 * Git smart HTTP at /{owner}/{repo}(.git)/...: info/refs, git-upload-pack, git-receive-pack. What
 * a fetch or push does lives in services/git-transport, shared with the SSH server.
 */
export function gitRouter(h: Hearth): Router {
  const router = express.Router();

  const prepare = async (req: Request, res: Response, service: HttpService): Promise<GitTarget | null> => {
    if (h.config.repository.disable_http_git) throw new ForbiddenError('Interacting with repositories by HTTP protocol is not allowed');
    const found = await callerTarget(h, req.ctx, String(req.params.owner), String(req.params.repo), service);
    if ('redirectTo' in found) {
      const rest = req.originalUrl.split('/').slice(3).join('/');
      res.redirect(301, `/${encodeURIComponent(found.redirectTo.owner)}/${encodeURIComponent(found.redirectTo.name)}.git/${rest}`);
      return null;
    }
    res.setHeader('Cache-Control', 'no-cache, max-age=0, must-revalidate');
    res.setHeader('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
    return found;
  };

  router.get('/:owner/:repo/info/refs', authenticate(), async (req, res) => {
    const service = serviceOf(req.query.service);
    if (!service) throw new ForbiddenError('only smart HTTP (git-upload-pack, git-receive-pack) is served');
    const target = await prepare(req, res, service);
    if (!target) return;
    const protocol = req.get('Git-Protocol');
    const child = spawnService(service, target.dir, { protocol, advertise: true });
    res.type(`application/x-git-${service}-advertisement`);
    if (!protocol?.includes('version=2')) res.write(serviceHeader(service));
    child.stdout!.pipe(res);
    child.stderr!.resume();
    child.on('error', () => res.destroy());
  });

  for (const service of ['upload-pack', 'receive-pack'] as const) {
    router.post(`/:owner/:repo/git-${service}`, authenticate(), async (req, res) => {
      const target = await prepare(req, res, service);
      if (!target) return;
      if (req.get('Content-Type') !== `application/x-git-${service}-request`) {
        throw new UnsupportedMediaTypeError(`expected Content-Type application/x-git-${service}-request`);
      }
      await serve(h, req, res, service, target);
    });
  }
  router.use(gitErrors);
  return router;
}

async function serve(h: Hearth, req: Request, res: Response, service: HttpService, target: GitTarget): Promise<void> {
  const input = /gzip/i.test(req.get('Content-Encoding') ?? '') ? req.pipe(zlib.createGunzip()) : req;
  countGitRequest(service);
  req.on('data', (chunk: Buffer) => countGitBytes(service, 'in', chunk.length));
  res.type(`application/x-git-${service}-result`);
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  await runGitService(h, {
    service, target, stateless: true, protocol: req.get('Git-Protocol'), input, output: res, signal: gone.signal,
    requestId: req.ctx.requestId, onBytes: (direction, n) => { if (direction === 'out') countGitBytes(service, 'out', n); },
  });
  res.end();
}

/** Git clients need WWW-Authenticate on every 401 to retry with credentials; bodies are text. */
const gitErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof AppError) {
    errorHeaders(res, err);
    if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="Hearth"');
    res.status(err.status).type('text/plain').send(`${err.message}\n`);
    return;
  }
  if (err instanceof NotFoundError) return next(err);
  req.ctx.log.error({ err, requestId: req.ctx.requestId }, 'git transport error');
  res.status(500).type('text/plain').send('internal error\n');
};
