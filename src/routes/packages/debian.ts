import express, { type Request, type Response } from 'express';
import { getIndexFile, getIndexFileByHash } from '../../services/packages/repo-index/store';
import { ownerPublicKey } from '../../services/packages/signing/owner-keys';
import { incrementDownloadCount } from '../../services/packages/queries';
import { DEBIAN, deleteDebianFile, getDebianFile, uploadDebianPackage } from '../../services/packages/debian/upload';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { sendIndexFile, storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's Debian registry (routers/api/packages/debian): the key, dists/ (built by the index
// job), the pool, PUT pool/{distribution}/{component}/upload, DELETE of one architecture's file.
// Errors are plain text.

const p = (req: Request, name: string) => String(req.params[name] ?? '');

async function repositoryKey(req: Request, res: Response): Promise<void> {
  const { key } = await ownerPublicKey(req.ctx.h, packageOwner(req), 'openpgp', 'Debian package registry');
  res.status(200).type('application/pgp-keys').setHeader('Content-Disposition', 'attachment; filename="repository.key"');
  res.send(key);
}

const INDEX_TYPES: Record<string, string> = {
  Release: 'text/plain; charset=utf-8', InRelease: 'text/plain; charset=utf-8', 'Release.gpg': 'application/pgp-signature',
  Packages: 'text/plain; charset=utf-8', 'Packages.gz': 'application/x-gzip', 'Packages.xz': 'application/x-xz',
};

async function distFile(req: Request, res: Response): Promise<void> {
  const dir = req.params.component ? `${p(req, 'component')}/${p(req, 'architecture')}/` : '';
  const file = await getIndexFile(req.ctx.db, packageOwner(req).id, DEBIAN, p(req, 'distribution'), `${dir}${p(req, 'filename')}`);
  await sendIndexFile(req, res, file, INDEX_TYPES[p(req, 'filename')] ?? 'application/octet-stream');
}

async function distFileByHash(req: Request, res: Response): Promise<void> {
  const dir = req.params.component ? `${p(req, 'component')}/${p(req, 'architecture')}` : '';
  const file = await getIndexFileByHash(req.ctx.db, packageOwner(req).id, DEBIAN, p(req, 'distribution'), dir, p(req, 'algorithm'), p(req, 'hash'));
  await sendIndexFile(req, res, file, 'application/octet-stream');
}

async function download(req: Request, res: Response): Promise<void> {
  const { version, file, blob } = await getDebianFile(req.ctx.db, packageOwner(req), p(req, 'distribution'), p(req, 'component'), p(req, 'filename'));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, version);
  await sendPackageBlob(req, res, { blob, filename: file.name, contentType: 'application/vnd.debian.binary-package', lastModified: file.created_unix });
}

async function upload(req: Request, res: Response): Promise<void> {
  const blob = await storeUploadBody(req, DEBIAN);
  await uploadDebianPackage(req.ctx.h, {
    owner: packageOwner(req), creator: req.ctx.doer!, distribution: p(req, 'distribution'), component: p(req, 'component'), blob,
  });
  res.status(201).end();
}

async function remove(req: Request, res: Response): Promise<void> {
  await deleteDebianFile(req.ctx.h, req.ctx.doer!, packageOwner(req), {
    distribution: p(req, 'distribution'), component: p(req, 'component'), name: p(req, 'name'), version: p(req, 'version'), architecture: p(req, 'architecture'),
  });
  res.status(204).end();
}

const router = express.Router();
router.get('/repository.key', repositoryKey);
router.get('/dists/:distribution/by-hash/:algorithm/:hash', distFileByHash);
router.get('/dists/:distribution/:filename', distFile);
router.get('/dists/:distribution/:component/:architecture/by-hash/:algorithm/:hash', distFileByHash);
router.get('/dists/:distribution/:component/:architecture/:filename', distFile);
router.get('/pool/:distribution/:component/:filename', download);
router.put('/pool/:distribution/:component/upload', reqPackageAccess('write'), upload);
router.delete('/pool/:distribution/:component/:name/:version/:architecture', reqPackageAccess('write'), remove);

export const debianRegistry: PackageRegistry = { router };
