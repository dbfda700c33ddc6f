import express, { type Request, type Response } from 'express';
import { BadRequestError } from '../../lib/errors';
import { storeBlob } from '../../services/packages/blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../../services/packages/limits';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../../services/packages/packages';
import { getFileOfVersion, getFilesOfVersion, getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import type { PackageRegistry } from './index';

// Gitea's generic registry (routers/api/packages/generic): PUT/GET/HEAD/DELETE
// {name}/{version}/{file}, DELETE {name}/{version}. Errors are plain text.

const TYPE = 'generic';
const NAME = /^[-_+.\p{L}\p{N}_]+$/u;
const FILENAME = /^[-_+=:;.()[\]{}~!@#$%^& \p{L}\p{N}_]+$/u;

/** Gitea's isValidPackageName: one character must be a letter or digit; never "..". */
const validName = (n: string) => NAME.test(n) && n !== '..' && !(n.length === 1 && !/[\p{L}\p{N}]/u.test(n));
const validFilename = (f: string) => FILENAME.test(f) && f.trim() === f && f !== '.' && f !== '..';

const params = (req: Request) => ({
  name: String(req.params.name), version: String(req.params.version), filename: String(req.params.filename ?? ''),
});

async function upload(req: Request, res: Response): Promise<void> {
  const { name, version, filename } = params(req);
  if (!validName(name)) throw new BadRequestError('invalid package name');
  if (!validFilename(filename)) throw new BadRequestError('invalid filename');
  if (version !== version.trim()) throw new BadRequestError('invalid package version');
  const { config, doer } = req.ctx;
  // Cut an upload over the type's limit while it streams, with Gitea's quota answer (403).
  const blob = await storeBlob(req.ctx.h.blobs, req, {
    maxSize: uploadSizeLimit(config, doer, TYPE), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
  await createPackageAndAddFile(req.ctx.h, {
    owner: packageOwner(req), creator: doer!, type: TYPE, name, version, file: { name: filename, isLead: true }, blob,
  });
  res.status(201).end();
}

async function download(req: Request, res: Response): Promise<void> {
  const { name, version, filename } = params(req);
  const v = await getVersion(req.ctx.db, packageOwner(req), TYPE, name, version);
  const { file, blob } = await getFileOfVersion(req.ctx.db, v.version, filename);
  if (file.is_lead && req.method === 'GET') await incrementDownloadCount(req.ctx.db, v.version);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix });
}

async function removeVersion(req: Request, res: Response): Promise<void> {
  const { name, version } = params(req);
  const v = await getVersion(req.ctx.db, packageOwner(req), TYPE, name, version);
  await deleteVersion(req.ctx.h, req.ctx.doer!, v.version);
  res.status(204).end();
}

/** Deletes a file; with the version's last file the version goes too (Gitea). */
async function removeFile(req: Request, res: Response): Promise<void> {
  const { name, version, filename } = params(req);
  const { db, doer } = req.ctx;
  const v = await getVersion(db, packageOwner(req), TYPE, name, version);
  const { file } = await getFileOfVersion(db, v.version, filename);
  if ((await getFilesOfVersion(db, v.version)).length === 1) await deleteVersion(req.ctx.h, doer!, v.version);
  else await deletePackageFile(db, file);
  res.status(204).end();
}

const router = express.Router();
router.delete('/:name/:version', reqPackageAccess('write'), removeVersion);
router.get('/:name/:version/:filename', download);
router.head('/:name/:version/:filename', download);
router.put('/:name/:version/:filename', reqPackageAccess('write'), upload);
router.delete('/:name/:version/:filename', reqPackageAccess('write'), removeFile);

export const genericRegistry: PackageRegistry = { router };
