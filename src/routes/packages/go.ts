import express, { type Request, type Response } from 'express';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import {
  decodeGoPath, GO, goModOf, goVersionInfo, goVersionList, goZipOf, resolveGoVersion, uploadGoModule,
} from '../../services/packages/go/goproxy';
import { incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Go registry (routers/api/packages/goproxy): PUT /upload of a module zip, and the
// GOPROXY protocol under /{module}/@v/... and /{module}/@latest. Errors are plain text.

async function upload(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, GO);
  await uploadGoModule(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, blob });
  res.status(201).end();
}

/** /{module}/@v/list, /@v/{version}.info|.mod|.zip, /@latest: module paths hold slashes, so parsed by hand. */
async function proxy(req: Request, res: Response): Promise<void> {
  const { db } = req.ctx;
  const owner = packageOwner(req);
  let path: string;
  try { path = decodeURIComponent(req.path); } catch { throw new BadRequestError('invalid path'); }
  const latest = /^\/(.+)\/@latest$/.exec(path);
  const list = /^\/(.+)\/@v\/list$/.exec(path);
  const file = /^\/(.+)\/@v\/([^/]+)\.(info|mod|zip)$/.exec(path);
  if (list) { res.type('text/plain; charset=utf-8').send(await goVersionList(db, owner, decodeGoPath(list[1]!))); return; }
  if (latest) { res.json(goVersionInfo(await resolveGoVersion(db, owner, decodeGoPath(latest[1]!), 'latest'))); return; }
  if (!file) throw new NotFoundError();
  const v = await resolveGoVersion(db, owner, decodeGoPath(file[1]!), decodeGoPath(file[2]!));
  if (file[3] === 'info') { res.json(goVersionInfo(v)); return; }
  if (file[3] === 'mod') { res.type('text/plain; charset=utf-8').send(await goModOf(db, v)); return; }
  const { file: f, blob } = await goZipOf(db, v);
  if (req.method === 'GET') await incrementDownloadCount(db, v);
  await sendPackageBlob(req, res, { blob, filename: f.name, lastModified: f.created_unix, contentType: 'application/zip' });
}

const router = express.Router();
router.put('/upload', reqPackageAccess('write'), upload);
router.get('/sumdb/sum.golang.org/supported', () => { throw new NotFoundError(); });
router.get(/.*/, proxy);
router.head(/.*/, proxy);

export const goRegistry: PackageRegistry = { router };
