import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { Hearth } from '../hearth';
import { installHooks, parseHookRequest } from '../git/hooks';
import { repoDir } from '../git/repo';
import { serviceHeader, spawnService, type GitService } from '../git/transport';
import { AppError, ForbiddenError, NotFoundError } from '../lib/errors';
import { authorizeGit } from '../services/repo/git-access';
import { openWikiForGit, splitWikiName } from '../services/wiki/wiki-repo';
import { checkRefUpdates } from '../services/repo/push-rules';
import { finishPush, recordAcceptedPush } from '../services/repo/ref-intent';
import { refsMoved } from '../services/repo/refs-moved';
import type { RepoAccess } from '../services/repo/repos';
import { countGitBytes, countGitRequest } from '../services/metrics/registry';
import { authenticate } from './middleware/auth';
import { errorHeaders } from './middleware/errors';

const serviceOf = (value: unknown): GitService | null =>
  value === 'git-upload-pack' ? 'upload-pack' : value === 'git-receive-pack' ? 'receive-pack' : null;

/** Git smart HTTP at /{owner}/{repo}(.git)/...: info/refs, git-upload-pack, git-receive-pack. */
export function gitRouter(h: Hearth): Router {
  const router = express.Router();
  const hooksPath = installHooks(h.config.server.data_dir);
  const tmpRoot = path.join(h.config.server.data_dir, 'tmp');
  fs.mkdirSync(tmpRoot, { recursive: true });

  type Prepared = { access: RepoAccess; dir: string; wiki: boolean };
  const prepare = async (req: Request, res: Response, service: GitService): Promise<Prepared | null> => {
    if (h.config.repository.disable_http_git) throw new ForbiddenError('Interacting with repositories by HTTP protocol is not allowed');
    const owner = String(req.params.owner);
    const { name, wiki } = splitWikiName(String(req.params.repo));
    const found = await authorizeGit(h.db, req.ctx, owner, name, service === 'receive-pack', wiki ? 'repo.wiki' : 'repo.code');
    if ('redirectTo' in found) {
      const rest = req.originalUrl.split('/').slice(3).join('/');
      const target = `${found.redirectTo.name}${wiki ? '.wiki' : ''}`;
      res.redirect(301, `/${encodeURIComponent(found.redirectTo.owner)}/${encodeURIComponent(target)}.git/${rest}`);
      return null;
    }
    res.setHeader('Cache-Control', 'no-cache, max-age=0, must-revalidate');
    res.setHeader('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
    if (!wiki) return { access: found, dir: repoDir(h.config.repository.root, found.owner.name, found.repo.name), wiki };
    // The wiki repository appears with its first page; a push may create it, a fetch may not.
    const dir = await openWikiForGit(h.config, found, service === 'receive-pack');
    return { access: found, dir, wiki };
  };

  router.get('/:owner/:repo/info/refs', authenticate(), async (req, res) => {
    const service = serviceOf(req.query.service);
    if (!service) throw new ForbiddenError('only smart HTTP (git-upload-pack, git-receive-pack) is served');
    const prepared = await prepare(req, res, service);
    if (!prepared) return;
    const { dir } = prepared;
    const protocol = req.get('Git-Protocol');
    const child = spawnService(service, dir, { protocol, advertise: true });
    res.type(`application/x-git-${service}-advertisement`);
    if (!protocol?.includes('version=2')) res.write(serviceHeader(service));
    child.stdout!.pipe(res);
    child.stderr!.resume();
    child.on('error', () => res.destroy());
  });

  for (const service of ['upload-pack', 'receive-pack'] as const) {
    router.post(`/:owner/:repo/git-${service}`, authenticate(), async (req, res) => {
      const prepared = await prepare(req, res, service);
      if (!prepared) return;
      if (req.get('Content-Type') !== `application/x-git-${service}-request`) {
        throw new AppError(415, `expected Content-Type application/x-git-${service}-request`);
      }
      await runService(h, req, res, service, prepared, { hooksPath, tmpRoot });
    });
  }
  router.use(gitErrors);
  return router;
}

type RunOptions = { hooksPath: string; tmpRoot: string };

async function runService(
  h: Hearth, req: Request, res: Response, service: GitService, { access, dir, wiki }: { access: RepoAccess; dir: string; wiki: boolean }, o: RunOptions,
) {
  // A wiki push is no move of the repository's refs: no protection rules, no refs.moved.
  const hookDir = service === 'receive-pack' && !wiki ? fs.mkdtempSync(path.join(o.tmpRoot, 'push-')) : null;
  const child = spawnService(service, dir, {
    protocol: req.get('Git-Protocol'),
    env: hookDir ? { HEARTH_HOOK_DIR: hookDir } : {},
    config: hookDir ? [`core.hooksPath=${o.hooksPath}`] : [],
  });
  const hook = hookDir ? answerHook(h, access, req, dir, hookDir) : null;
  const body = /gzip/i.test(req.get('Content-Encoding') ?? '') ? req.pipe(zlib.createGunzip()) : req;
  body.on('error', () => child.kill('SIGKILL'));
  countGitRequest(service);
  req.on('data', (chunk: Buffer) => countGitBytes(service, 'in', chunk.length));
  child.stdout!.on('data', (chunk: Buffer) => countGitBytes(service, 'out', chunk.length));
  body.pipe(child.stdin!);
  child.stdin!.on('error', () => { /* git stopped reading: it reports why on stdout */ });
  child.stderr!.resume();
  res.type(`application/x-git-${service}-result`);
  child.stdout!.pipe(res, { end: false });
  res.on('close', () => { if (child.exitCode === null) child.kill('SIGKILL'); });
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  if (hookDir && hook) {
    const intent = await hook.stop();
    const request = path.join(hookDir, 'request');
    const updates = fs.existsSync(request) ? parseHookRequest(fs.readFileSync(request, 'utf8')).updates : [];
    fs.rmSync(hookDir, { recursive: true, force: true });
    // The database follows the refs before the client hears the push is done; what follows a
    // push (feed, pull requests, webhooks) hangs on the refs.moved event.
    const doer = req.ctx.doer;
    await finishPush(h.db, intent, async () => {
      if (updates.length && doer) await refsMoved(h.db, access.repo, doer, dir, updates, 'push');
    }).catch((err: unknown) => h.log.error({ err, repo: access.repo.id, requestId: req.ctx.requestId }, 'sync after push failed'));
  }
  res.end();
}

/**
 * Watches the per-push directory for the pre-receive hook's request and writes the verdict; an
 * accepted push is recorded as an intent first (push-intent). stop() answers the intent's id.
 */
function answerHook(h: Hearth, access: RepoAccess, req: Request, dir: string, hookDir: string): { stop: () => Promise<number | null> } {
  let answered = false;
  let intent: number | null = null;
  let verdict: Promise<unknown> = Promise.resolve();
  const check = () => {
    if (answered || !fs.existsSync(path.join(hookDir, 'request'))) return;
    answered = true;
    const { quarantine, updates } = parseHookRequest(fs.readFileSync(path.join(hookDir, 'request'), 'utf8'));
    verdict = checkRefUpdates(h.db, access, req.ctx.doer!, dir, quarantine, updates)
      .catch((err: unknown) => {
        h.log.error({ err, requestId: req.ctx.requestId }, 'pre-receive check failed');
        return 'internal error while checking the push';
      })
      .then(async (checked) => {
        let refusal = checked;
        if (!refusal) {
          intent = await recordAcceptedPush(h.db, access.repo.id, req.ctx.doer!.id, updates)
            .catch((err: unknown) => { h.log.error({ err, requestId: req.ctx.requestId }, 'recording the push failed'); return null; });
          if (intent === null) refusal = 'internal error while accepting the push';
        }
        if (refusal) fs.writeFileSync(path.join(hookDir, 'message'), `${refusal}\n`);
        fs.writeFileSync(path.join(hookDir, 'verdict.tmp'), refusal ? '1' : '0');
        fs.renameSync(path.join(hookDir, 'verdict.tmp'), path.join(hookDir, 'verdict'));
      })
      .catch(() => { /* push already finished */ });
  };
  const watcher = fs.watch(hookDir, check);
  const timer = setInterval(check, 100);
  return {
    stop: async () => {
      watcher.close();
      clearInterval(timer);
      await verdict;
      return intent;
    },
  };
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
