import express, { type Request, type Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { incrementDownloadCount } from '../../services/packages/queries';
import { getIndexFile } from '../../services/packages/repo-index/store';
import { RPM, checkGroup, deleteRpmFile, getRpmFile, uploadRpmPackage } from '../../services/packages/rpm/upload';
import { ownerPublicKey } from '../../services/packages/signing/owner-keys';
import { assertPackageAccess, packageOwner } from './access';
import { sendPackageBlob } from './send-blob';
import { sendIndexFile, storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's RPM registry (routers/api/packages/rpm): repository.key, {group}.repo, PUT
// {group}/upload, {group}/repodata/* (built by the index job) and {group}/package/{name}/
// {version}/{arch}[/{file}] (GET, HEAD, DELETE). The group is any number of path segments, so
// the path is matched here rather than by route patterns. Errors are plain text.

const decode = (s: string) => { try { return decodeURIComponent(s); } catch { throw new NotFoundError(); } };

async function repoFile(req: Request, res: Response, group: string): Promise<void> {
  const owner = packageOwner(req);
  const root = `${req.ctx.config.server.root_url}api/packages/${encodeURIComponent(owner.name)}/rpm`;
  const base = group ? `${root}/${group}` : root;
  const id = [owner.name, ...group.split('/').filter(Boolean)].join('-');
  const text = `[gitea-${id}]\nname=${owner.name}${group ? ` - ${group}` : ''} - ${req.ctx.config.server.app_name}\nbaseurl=${base}\nenabled=1\n`
    + `gpgcheck=0\nrepo_gpgcheck=1\ngpgkey=${root}/repository.key\n`;
  res.status(200).type('text/plain; charset=utf-8').send(text);
}

async function key(req: Request, res: Response): Promise<void> {
  const { key: armored } = await ownerPublicKey(req.ctx.h, packageOwner(req), 'openpgp', 'RPM package registry');
  res.status(200).type('application/pgp-keys').setHeader('Content-Disposition', 'attachment; filename="repository.key"');
  res.send(armored);
}

const REPODATA_TYPES: Record<string, string> = { 'repomd.xml': 'text/xml', 'repomd.xml.asc': 'application/pgp-signature' };

async function route(req: Request, res: Response): Promise<void> {
  const parts = req.path.split('/').slice(1).map(decode);
  const method = req.method;
  if (method === 'GET' && parts.length === 1 && parts[0] === 'repository.key') return key(req, res);
  const last = parts[parts.length - 1] ?? '';
  if (method === 'GET' && last.endsWith('.repo') && parts.length >= 1) {
    const group = [...parts.slice(0, -1), last.slice(0, -5)].filter(Boolean).join('/');
    checkGroup(group);
    return repoFile(req, res, group);
  }
  if (method === 'PUT' && last === 'upload') {
    assertPackageAccess(req, res, 'write');
    const group = parts.slice(0, -1).join('/');
    const blob = await storeUploadBody(req, RPM);
    await uploadRpmPackage(req.ctx.h, { owner: packageOwner(req), creator: req.ctx.doer!, group, blob });
    res.status(201).end();
    return;
  }
  const repodata = parts.lastIndexOf('repodata');
  if (method === 'GET' && repodata >= 0 && repodata === parts.length - 2) {
    const file = await getIndexFile(req.ctx.db, packageOwner(req).id, RPM, parts.slice(0, repodata).join('/'), `repodata/${last}`);
    return sendIndexFile(req, res, file, REPODATA_TYPES[last] ?? 'application/x-gzip');
  }
  const pkg = parts.lastIndexOf('package');
  const rest = pkg >= 0 ? parts.slice(pkg + 1) : [];
  if (pkg >= 0 && (rest.length === 3 || rest.length === 4)) {
    const group = parts.slice(0, pkg).join('/');
    const [name, version, arch] = rest as [string, string, string];
    if (method === 'DELETE' && rest.length === 3) {
      assertPackageAccess(req, res, 'write');
      await deleteRpmFile(req.ctx.h, req.ctx.doer!, packageOwner(req), group, name, version, arch);
      res.status(204).end();
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      const f = await getRpmFile(req.ctx.db, packageOwner(req), group, name, version, arch);
      if (rest[3] !== undefined && rest[3].toLowerCase() !== f.file.lower_name) throw new NotFoundError('package file does not exist');
      if (method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
      return sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, contentType: 'application/x-rpm', lastModified: f.file.created_unix });
    }
  }
  throw new NotFoundError();
}

const router = express.Router();
router.use(route);

export const rpmRegistry: PackageRegistry = { router };

/** `/api/packages/{owner}/rpm.repo`: the .repo file of the default group (Gitea's path). */
const repoRouter = express.Router();
repoRouter.get('/', (req, res) => repoFile(req, res, ''));
export const rpmRepoFileRegistry: PackageRegistry = { router: repoRouter };
