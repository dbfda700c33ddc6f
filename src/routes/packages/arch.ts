import express, { type Request, type Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { ARCH, checkRepository, deleteArchFile, getArchFile, uploadArchPackage } from '../../services/packages/arch/arch';
import { incrementDownloadCount } from '../../services/packages/queries';
import { getIndexFile } from '../../services/packages/repo-index/store';
import { ownerPublicKey } from '../../services/packages/signing/owner-keys';
import { assertPackageAccess, packageOwner } from './access';
import { sendPackageBlob } from './send-blob';
import { sendIndexFile, storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's Arch registry (routers/api/packages/arch): repository.key, PUT {repository...},
// GET {repository...}/{arch}/{file} (a package, or the databases under any name pacman asks for:
// `{section}.db`, `.files`, with `.tar.gz` and `.sig`), DELETE {repository...}/{name}/{version}/{arch}.
// The repository is any number of path segments, so the path is matched here. Plain text errors.

const decode = (s: string) => { try { return decodeURIComponent(s); } catch { throw new NotFoundError(); } };
const DB_FILE = /\.(db|files)(\.tar\.gz)?(\.sig)?$/;

async function key(req: Request, res: Response): Promise<void> {
  const { key: armored } = await ownerPublicKey(req.ctx.h, packageOwner(req), 'openpgp', 'Arch package registry');
  res.status(200).type('application/pgp-keys').setHeader('Content-Disposition', 'attachment; filename="repository.key"');
  res.send(armored);
}

async function getFile(req: Request, res: Response, repository: string, arch: string, filename: string): Promise<void> {
  const m = DB_FILE.exec(filename);
  if (m) {
    const name = `${m[1]}.tar.gz${m[3] ?? ''}`;
    const owner = packageOwner(req).id;
    const file = await getIndexFile(req.ctx.db, owner, ARCH, repository, `${arch}/${name}`)
      .catch(() => getIndexFile(req.ctx.db, owner, ARCH, repository, `any/${name}`));
    return sendIndexFile(req, res, file, m[3] ? 'application/pgp-signature' : 'application/x-gzip');
  }
  const f = await getArchFile(req.ctx.db, packageOwner(req), repository, filename);
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
}

async function route(req: Request, res: Response): Promise<void> {
  const parts = req.path.split('/').slice(1).filter((s, i, a) => s !== '' || i < a.length - 1).map(decode);
  if (req.method === 'GET' && parts.length === 1 && parts[0] === 'repository.key') return key(req, res);
  if (req.method === 'PUT') {
    assertPackageAccess(req, res, 'write');
    const repository = parts.filter(Boolean).join('/');
    checkRepository(repository);
    const blob = await storeUploadBody(req, ARCH);
    await uploadArchPackage(req.ctx.h, { owner: packageOwner(req), creator: req.ctx.doer!, repository, blob });
    res.status(201).end();
    return;
  }
  if ((req.method === 'GET' || req.method === 'HEAD') && parts.length >= 2) {
    return getFile(req, res, parts.slice(0, -2).join('/'), parts[parts.length - 2]!, parts[parts.length - 1]!);
  }
  if (req.method === 'DELETE' && parts.length >= 3) {
    assertPackageAccess(req, res, 'write');
    const [name, version, architecture] = parts.slice(-3) as [string, string, string];
    await deleteArchFile(req.ctx.h, req.ctx.doer!, packageOwner(req), { repository: parts.slice(0, -3).join('/'), name, version, architecture });
    res.status(204).end();
    return;
  }
  throw new NotFoundError();
}

const router = express.Router();
router.use(route);

export const archRegistry: PackageRegistry = { router };
