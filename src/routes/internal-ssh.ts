import express, { type Request, type Response, type Router } from 'express';
import type { Hearth } from '../hearth';
import { FRAME, frame, framedWriter } from '../lib/serv-frames';
import { NotFoundError } from '../lib/errors';
import { isInternalSshToken } from '../services/git-transport/internal-token';
import { identityByKeyId, identityByKeyContent } from '../services/git-transport/key-identity';
import { runKeyCommand } from '../services/git-transport/ssh-command';

// /api/internal/ssh: what `hearth keys` (AuthorizedKeysCommand) and `hearth serv` (the forced
// command) of the system sshd ask the running server. Only for the internal token; to anyone
// else it is not there.

function guard(h: Hearth) {
  return (req: Request, _res: Response, next: () => void) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.get('Authorization') ?? '')?.[1] ?? '';
    if (!isInternalSshToken(h.secret, token)) throw new NotFoundError();
    next();
  };
}

/** GET authorized-key?content=TYPE BASE64: the id of that key, when hearth knows it. */
async function authorizedKey(h: Hearth, req: Request, res: Response): Promise<void> {
  const who = await identityByKeyContent(h.db, String(req.query.content ?? ''));
  if (!who) throw new NotFoundError();
  res.json({ key_id: who.key.id });
}

/** POST serv/:keyId: runs X-Hearth-Command for the key; the body is its stdin, the answer frames. */
async function serv(h: Hearth, req: Request, res: Response): Promise<void> {
  const id = Number(req.params.keyId);
  const who = Number.isSafeInteger(id) ? await identityByKeyId(h.db, id) : null;
  if (!who) throw new NotFoundError();
  const command = decodeURIComponent(req.get('X-Hearth-Command') ?? '');
  res.status(200).type('application/octet-stream');
  res.flushHeaders();
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const code = await runKeyCommand(h, who, command, { gitProtocol: req.get('X-Hearth-Git-Protocol') }, {
    stdin: req, stdout: framedWriter(res, FRAME.stdout), stderr: framedWriter(res, FRAME.stderr), signal: gone.signal,
  });
  res.end(frame(FRAME.exit, String(code)));
}

export function internalSshRouter(h: Hearth): Router {
  const router = express.Router();
  router.use(guard(h));
  router.get('/authorized-key', (req, res) => authorizedKey(h, req, res));
  router.post('/serv/:keyId', (req, res) => serv(h, req, res));
  return router;
}
