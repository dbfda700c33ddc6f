import express, { type Request, type Response } from 'express';
import { chefRequestUser } from '../../services/packages/chef/auth';
import {
  CHEF, chefCookbook, chefCookbookVersion, chefList, chefTarball, chefUnshare, chefUniverse, uploadCookbook,
} from '../../services/packages/chef/chef';
import { packageAccessMode } from '../../services/packages/access';
import { incrementDownloadCount } from '../../services/packages/queries';
import { assertPackageAccess, packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Chef registry (routers/api/packages/chef) under api/v1: universe, search, cookbooks
// (list, share with a form's `tarball`), cookbooks/{name} (show, unshare), .../versions/{version}
// (show, unshare, download). knife signs its requests (services/packages/chef/auth.ts): a signed
// request's user is the caller. Errors are {"error_messages": [message]}.

/** knife's signed headers make the caller; then the read check every route needs. */
async function chefAuth(req: Request, res: Response, next: (err?: unknown) => void): Promise<void> {
  const user = await chefRequestUser(req.ctx.db, { method: req.method, path: req.originalUrl.split('?')[0]!, headers: req.headers });
  if (user && !req.ctx.doer) {
    req.ctx.doer = user;
    res.locals.packageAccess = await packageAccessMode(req.ctx.db, packageOwner(req), user);
  }
  assertPackageAccess(req, res, 'read');
  next();
}

const q = (req: Request, k: string) => String((req.query as Record<string, unknown>)[k] ?? '').trim();
const int = (v: string, d: number) => { const n = Number.parseInt(v, 10); return Number.isFinite(n) && n >= 0 ? n : d; };
const p = (req: Request, k: string) => String(req.params[k]);

async function list(req: Request, res: Response): Promise<void> {
  res.json(await chefList(req.ctx.h, packageOwner(req), { q: q(req, 'q'), start: int(q(req, 'start'), 0), items: Math.min(int(q(req, 'items'), 10) || 10, 100), order: q(req, 'order') }));
}

async function share(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, CHEF, 'tarball');
  await uploadCookbook(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, blob });
  res.status(201).json({});
}

async function download(req: Request, res: Response): Promise<void> {
  const f = await chefTarball(req.ctx.db, packageOwner(req), p(req, 'name'), p(req, 'version'));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix, contentType: 'application/gzip' });
}

const unshare = (withVersion: boolean) => async (req: Request, res: Response): Promise<void> => {
  await chefUnshare(req.ctx.h, req.ctx.doer!, packageOwner(req), p(req, 'name'), withVersion ? p(req, 'version') : undefined);
  res.status(200).end();
};

const router = express.Router();
router.use(chefAuth);
router.get('/api/v1/universe', async (req, res) => { res.json(await chefUniverse(req.ctx.h, packageOwner(req))); });
router.get('/api/v1/search', list);
router.get('/api/v1/cookbooks', list);
router.post('/api/v1/cookbooks', reqPackageAccess('write'), share);
router.get('/api/v1/cookbooks/:name', async (req, res) => { res.json(await chefCookbook(req.ctx.h, packageOwner(req), p(req, 'name'))); });
router.delete('/api/v1/cookbooks/:name', reqPackageAccess('write'), unshare(false));
router.get('/api/v1/cookbooks/:name/versions/:version', async (req, res) => {
  res.json(await chefCookbookVersion(req.ctx.h, packageOwner(req), p(req, 'name'), p(req, 'version')));
});
router.delete('/api/v1/cookbooks/:name/versions/:version', reqPackageAccess('write'), unshare(true));
router.get('/api/v1/cookbooks/:name/versions/:version/download', download);
router.head('/api/v1/cookbooks/:name/versions/:version/download', download);

const replyError = (_req: Request, res: Response, status: number, message: string) => { res.status(status).json({ error_messages: [message] }); };

export const chefRegistry: PackageRegistry = { router, replyError, ownReadCheck: true };
