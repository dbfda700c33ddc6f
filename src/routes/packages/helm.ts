import express, { type Request, type Response } from 'express';
import { chartFile, HELM, helmIndex, uploadChart } from '../../services/packages/helm/helm';
import { incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Helm registry (routers/api/packages/helm): GET index.yaml and {chart}.tgz, POST
// api/charts with the archive as the body or as a form's file (helm cm-push sends field
// "chart"). Errors are {"error": message}.

async function upload(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, HELM);
  await uploadChart(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, blob });
  res.status(201).json({ saved: true });
}

async function download(req: Request, res: Response): Promise<void> {
  const f = await chartFile(req.ctx.db, packageOwner(req), String(req.params.filename));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix, contentType: 'application/gzip' });
}

const router = express.Router();
router.get('/index.yaml', async (req, res) => { res.type('application/x-yaml').send(await helmIndex(req.ctx.h, packageOwner(req))); });
router.post('/api/charts', reqPackageAccess('write'), upload);
router.get('/:filename', download);
router.head('/:filename', download);

const replyError = (_req: Request, res: Response, status: number, message: string) => { res.status(status).json({ error: message }); };

export const helmRegistry: PackageRegistry = { router, replyError };
