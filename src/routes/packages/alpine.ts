import express, { type Request, type Response } from 'express';
import { ALPINE, alpineKey, deleteAlpineFile, getAlpineFile, uploadAlpinePackage } from '../../services/packages/alpine/alpine';
import { incrementDownloadCount } from '../../services/packages/queries';
import { getIndexFile } from '../../services/packages/repo-index/store';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { sendIndexFile, storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's Alpine registry (routers/api/packages/alpine): the RSA key, PUT {branch}/{repository},
// {branch}/{repository}/{arch}/APKINDEX.tar.gz (built by the index job), package files (GET,
// DELETE). Plain text errors.

const p = (req: Request, k: string) => String(req.params[k] ?? '');
const where = (req: Request) => ({ branch: p(req, 'branch'), repository: p(req, 'repository'), architecture: p(req, 'architecture'), filename: p(req, 'filename') });

async function key(req: Request, res: Response): Promise<void> {
  const { name, pem } = await alpineKey(req.ctx.h, packageOwner(req));
  res.status(200).type('application/x-pem-file').setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.send(pem);
}

async function index(req: Request, res: Response): Promise<void> {
  const file = await getIndexFile(req.ctx.db, packageOwner(req).id, ALPINE, `${p(req, 'branch')}/${p(req, 'repository')}`, `${p(req, 'architecture')}/APKINDEX.tar.gz`)
    .catch(() => getIndexFile(req.ctx.db, packageOwner(req).id, ALPINE, `${p(req, 'branch')}/${p(req, 'repository')}`, 'noarch/APKINDEX.tar.gz'));
  await sendIndexFile(req, res, file, 'application/gzip');
}

async function download(req: Request, res: Response): Promise<void> {
  const f = await getAlpineFile(req.ctx.db, packageOwner(req), where(req));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
}

async function upload(req: Request, res: Response): Promise<void> {
  const blob = await storeUploadBody(req, ALPINE);
  await uploadAlpinePackage(req.ctx.h, { owner: packageOwner(req), creator: req.ctx.doer!, branch: p(req, 'branch'), repository: p(req, 'repository'), blob });
  res.status(201).end();
}

async function remove(req: Request, res: Response): Promise<void> {
  await deleteAlpineFile(req.ctx.h, req.ctx.doer!, packageOwner(req), where(req));
  res.status(204).end();
}

const router = express.Router();
router.get('/key', key);
router.put('/:branch/:repository', reqPackageAccess('write'), upload);
router.get('/:branch/:repository/:architecture/APKINDEX.tar.gz', index);
router.get('/:branch/:repository/:architecture/:filename', download);
router.delete('/:branch/:repository/:architecture/:filename', reqPackageAccess('write'), remove);

export const alpineRegistry: PackageRegistry = { router };
