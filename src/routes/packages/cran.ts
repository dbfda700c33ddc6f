import express, { type Request, type Response } from 'express';
import { BadRequestError } from '../../lib/errors';
import { CRAN, cranPackagesIndex, getCranFile, uploadCranPackage } from '../../services/packages/cran/cran';
import { incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's CRAN registry (routers/api/packages/cran): PUT src, PUT bin?platform=&rversion=,
// PACKAGES(.gz) and files under src/contrib and bin/{platform}/contrib/{rversion}. Plain text errors.

const p = (req: Request, k: string) => String(req.params[k] ?? '');
const binaryOf = (req: Request) => (req.params.platform ? { platform: p(req, 'platform'), rversion: p(req, 'rversion') } : undefined);

async function packagesFile(req: Request, res: Response): Promise<void> {
  const format = p(req, 'format');
  if (format !== '' && format !== '.gz') { res.status(404).type('text/plain').send('unsupported format'); return; }
  const body = await cranPackagesIndex(req.ctx.db, packageOwner(req), { binary: binaryOf(req) }, format === '.gz');
  res.status(200).type(format === '.gz' ? 'application/x-gzip' : 'text/plain; charset=utf-8').send(body);
}

async function download(req: Request, res: Response): Promise<void> {
  const { version, file, blob } = await getCranFile(req.ctx.db, packageOwner(req), p(req, 'filename'), binaryOf(req));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, version);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix });
}

async function upload(req: Request, res: Response, binary: boolean): Promise<void> {
  const platform = String(req.query.platform ?? '');
  const rversion = String(req.query.rversion ?? '');
  if (binary && (!platform || !rversion)) throw new BadRequestError('platform and rversion are required');
  const blob = await storeUploadBody(req, CRAN);
  await uploadCranPackage(req.ctx.h, { owner: packageOwner(req), creator: req.ctx.doer!, blob, binary: binary ? { platform, rversion } : undefined });
  res.status(201).end();
}

const router = express.Router();
router.get('/src/contrib/PACKAGES', packagesFile);
router.get('/src/contrib/PACKAGES:format', packagesFile);
router.get('/src/contrib/Archive/:packagename/:filename', download);
router.get('/src/contrib/:filename', download);
router.put('/src', reqPackageAccess('write'), (req, res) => upload(req, res, false));
router.get('/bin/:platform/contrib/:rversion/PACKAGES', packagesFile);
router.get('/bin/:platform/contrib/:rversion/PACKAGES:format', packagesFile);
router.get('/bin/:platform/contrib/:rversion/:filename', download);
router.put('/bin', reqPackageAccess('write'), (req, res) => upload(req, res, true));

export const cranRegistry: PackageRegistry = { router };
