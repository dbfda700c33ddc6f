import express, { type Request, type Response } from 'express';
import { UnauthorizedError } from '../../lib/errors';
import { getFileOfVersion, getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { boxMetadata, uploadBox, VAGRANT } from '../../services/packages/vagrant/vagrant';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Vagrant registry (routers/api/packages/vagrant): GET authenticate, HEAD|GET {name}
// (the box metadata), GET|PUT {name}/{version}/{provider}.box. Errors are {"errors": [message]}.

async function upload(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, VAGRANT);
  const p = (k: string) => String(req.params[k]);
  await uploadBox(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, name: p('name'), version: p('version'), provider: p('provider'), blob });
  res.status(201).end();
}

async function download(req: Request, res: Response): Promise<void> {
  const { db } = req.ctx;
  const v = await getVersion(db, packageOwner(req), VAGRANT, String(req.params.name), String(req.params.version));
  const { file, blob } = await getFileOfVersion(db, v.version, String(req.params.provider));
  if (req.method === 'GET') await incrementDownloadCount(db, v.version);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix });
}

async function metadata(req: Request, res: Response): Promise<void> {
  const doc = await boxMetadata(req.ctx.h, packageOwner(req), String(req.params.name));
  // vagrant checks with HEAD that the box exists and is JSON.
  if (req.method === 'HEAD') { res.type('application/json').status(200).end(); return; }
  res.json(doc);
}

const router = express.Router();
router.get('/authenticate', (req, res) => {
  if (!req.ctx.doer) throw new UnauthorizedError('Invalid access token');
  res.status(200).end();
});
router.get('/:name', metadata);
router.head('/:name', metadata);
router.get('/:name/:version/:provider', download);
router.head('/:name/:version/:provider', download);
router.put('/:name/:version/:provider', reqPackageAccess('write'), upload);

const replyError = (_req: Request, res: Response, status: number, message: string) => { res.status(status).json({ errors: [message] }); };

export const vagrantRegistry: PackageRegistry = { router, replyError };
