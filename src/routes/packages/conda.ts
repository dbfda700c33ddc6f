import { STATUS_CODES } from 'node:http';
import express, { type Request, type Response } from 'express';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { CONDA, condaRepodata, getCondaFile, uploadCondaPackage } from '../../services/packages/conda/conda';
import { incrementDownloadCount } from '../../services/packages/queries';
import { assertPackageAccess, packageOwner } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's Conda registry (routers/api/packages/conda): GET [{channel...}/]{subdir}/{file}
// (repodata.json, current_repodata.json, or a package) and PUT [{channel...}/]{file}. The
// channel is any number of segments, so the path is matched here. Errors are JSON {reason, message}, as Gitea's.

const httpReason = (status: number) => STATUS_CODES[status] ?? '';
const decode = (s: string) => { try { return decodeURIComponent(s); } catch { throw new NotFoundError(); } };

async function route(req: Request, res: Response): Promise<void> {
  const parts = req.path.split('/').slice(1).map(decode);
  if (parts.some((p) => p === '')) throw new NotFoundError();
  if (req.method === 'PUT' && parts.length >= 1) {
    assertPackageAccess(req, res, 'write');
    const blob = await storeUploadBody(req, CONDA);
    await uploadCondaPackage(req.ctx.h, { owner: packageOwner(req), creator: req.ctx.doer!, channel: parts.slice(0, -1).join('/'), filename: parts[parts.length - 1]!, blob });
    res.status(201).end();
    return;
  }
  if ((req.method === 'GET' || req.method === 'HEAD') && parts.length >= 2) {
    const channel = parts.slice(0, -2).join('/');
    const [subdir, filename] = parts.slice(-2) as [string, string];
    if (filename === 'repodata.json' || filename === 'current_repodata.json') {
      res.status(200).json(await condaRepodata(req.ctx.db, packageOwner(req), channel, subdir));
      return;
    }
    if (filename === 'repodata.json.bz2') throw new NotFoundError();
    const f = await getCondaFile(req.ctx.db, packageOwner(req), channel, subdir, filename);
    if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
    await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
    return;
  }
  throw req.method === 'PUT' ? new BadRequestError('no file name') : new NotFoundError();
}

const router = express.Router();
router.use(route);

export const condaRegistry: PackageRegistry = {
  router,
  replyError: (_req, res, status, message) => { res.status(status).json({ reason: httpReason(status), message }); },
};
