import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { StorageEngine } from 'multer';
import { BadRequestError, UnauthorizedError } from '../../lib/errors';
import { multer } from '../../lib/lazy-require';
import { storeBlob, type StoredBlob } from '../../services/packages/blob-store';
import { packageAccessMode } from '../../services/packages/access';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../../services/packages/limits';
import { flatVersions, registrationIndex, registrationLeaf, searchResults, serviceIndex } from '../../services/packages/nuget/documents';
import { deleteNugetVersion, discardNugetBlob, getNugetFile, getSymbolFile, nugetVersions, NUGET, publishNupkg, publishSnupkg, searchNuget } from '../../services/packages/nuget/nuget';
import { incrementDownloadCount } from '../../services/packages/queries';
import { authenticateToken } from '../../services/user/auth';
import { assertPackageAccess, packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's NuGet registry, v3 (routers/api/packages/nuget): index.json, PUT / (a multipart
// .nupkg, or the raw body), PUT symbolpackage, DELETE {id}/{version}, registration/, package/
// (the flat container), query, symbols/. NuGet clients send the token as X-NuGet-ApiKey.
// Errors are JSON {"Message": ...}.

const p = (req: Request, k: string) => String(req.params[k] ?? '');
const base = (req: Request) => `${req.ctx.config.server.root_url}api/packages/${encodeURIComponent(packageOwner(req).name)}/nuget`;

/** Gitea's nuget.Auth: the X-NuGet-ApiKey header is a token when no other credentials came. */
const apiKey: RequestHandler = async (req, res, next) => {
  const key = req.headers['x-nuget-apikey'];
  if (!req.ctx.doer && typeof key === 'string' && key) {
    const found = await authenticateToken(req.ctx.db, key);
    if (!found) throw new UnauthorizedError();
    req.ctx.doer = found.user;
    req.ctx.scopes = found.scopes;
    res.locals.packageAccess = await packageAccessMode(req.ctx.db, packageOwner(req), found.user);
  }
  assertPackageAccess(req, res, 'read');
  next();
};

const storage: StorageEngine = {
  _handleFile(req, file, cb) {
    storeBlob(req.ctx.config.server.data_dir, file.stream, {
      maxSize: uploadSizeLimit(req.ctx.config, req.ctx.doer, NUGET), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
    }).then((blob) => cb(null, { size: blob.size, blob } as object), (err: Error) => cb(err));
  },
  _removeFile(req, file, cb) {
    const blob = (file as { blob?: StoredBlob }).blob;
    if (!blob) { cb(null); return; }
    discardNugetBlob(req.ctx.db, req.ctx.config, blob).then(() => cb(null), (err: Error) => cb(err));
  },
};
let form: RequestHandler | undefined;

/** The package: the first file of a multipart body (as nuget and dotnet send it), or the body itself. */
async function uploadedBlob(req: Request, res: Response): Promise<StoredBlob> {
  if (!req.is('multipart/form-data')) return storeUploadBody(req, NUGET);
  form ??= multer()({ storage, limits: { files: 1, fields: 10 } }).any();
  await new Promise<void>((resolve, reject) => form!(req, res, ((err?: unknown) => {
    if (err instanceof multer().MulterError) reject(new BadRequestError(err.message));
    else if (err) reject(err as Error);
    else resolve();
  }) as NextFunction));
  const file = (req.files as (Express.Multer.File & { blob?: StoredBlob })[] | undefined)?.[0];
  if (!file?.blob) throw new BadRequestError('no package file in the form');
  return file.blob;
}

async function publish(req: Request, res: Response, symbols: boolean): Promise<void> {
  const blob = await uploadedBlob(req, res);
  const input = { owner: packageOwner(req), creator: req.ctx.doer!, blob };
  if (symbols) await publishSnupkg(req.ctx.db, req.ctx.config, input);
  else await publishNupkg(req.ctx.db, req.ctx.config, input);
  res.status(201).end();
}

async function download(req: Request, res: Response): Promise<void> {
  const f = await getNugetFile(req.ctx.db, packageOwner(req), p(req, 'id'), p(req, 'version'), p(req, 'filename'));
  if (req.method === 'GET' && f.file.is_lead) await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
}

async function registrationLeafDoc(req: Request, res: Response): Promise<void> {
  const id = p(req, 'id');
  const { versions } = await nugetVersions(req.ctx.db, packageOwner(req), id);
  const wanted = p(req, 'version').replace(/\.json$/, '').toLowerCase();
  const v = versions.find((x) => x.lower_version === wanted);
  if (!v) { res.status(404).json({ Message: 'package does not exist' }); return; }
  res.json(registrationLeaf(base(req), id, v));
}

async function symbol(req: Request, res: Response): Promise<void> {
  if (p(req, 'filename').toLowerCase() !== p(req, 'filename2').toLowerCase()) throw new BadRequestError('file names differ');
  const f = await getSymbolFile(req.ctx.db, packageOwner(req), p(req, 'filename'), p(req, 'guid'));
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
}

const router = express.Router();
router.use(apiKey);
router.get('/index.json', (req, res) => { res.json(serviceIndex(base(req))); });
router.put('/', reqPackageAccess('write'), (req, res) => publish(req, res, false));
router.put('/symbolpackage', reqPackageAccess('write'), (req, res) => publish(req, res, true));
router.get('/query', async (req, res) => {
  const skip = Math.max(0, Number(req.query.skip) || 0);
  const take = Math.min(100, Math.max(1, Number(req.query.take) || 20));
  const r = await searchNuget(req.ctx.db, packageOwner(req), String(req.query.q ?? ''), skip, take);
  res.json(searchResults(base(req), r.total, r.packages));
});
router.get('/registration/:id/index.json', async (req, res) => { res.json(registrationIndex(base(req), await nugetVersions(req.ctx.db, packageOwner(req), p(req, 'id')))); });
router.get('/registration/:id/:version', registrationLeafDoc);
router.get('/package/:id/index.json', async (req, res) => { res.json(flatVersions(await nugetVersions(req.ctx.db, packageOwner(req), p(req, 'id')))); });
router.get('/package/:id/:version/:filename', download);
router.head('/package/:id/:version/:filename', download);
router.get('/symbols/:filename/:guid/:filename2', symbol);
router.delete('/:id/:version', reqPackageAccess('write'), async (req, res) => {
  await deleteNugetVersion(req.ctx.db, req.ctx.config, req.ctx.doer!, packageOwner(req), p(req, 'id'), p(req, 'version'));
  res.status(204).end();
});

export const nugetRegistry: PackageRegistry = {
  router,
  ownReadCheck: true,
  replyError: (_req, res, status, message) => { res.status(status).json({ Message: message }); },
};
