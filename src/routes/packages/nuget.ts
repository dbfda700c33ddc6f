import express, { type Request, type RequestHandler, type Response } from 'express';
import { BadRequestError, UnauthorizedError } from '../../lib/errors';
import { firstPartContent, multipartBoundary } from './first-part';
import { storeBlob, type StoredBlob } from '../../services/packages/blob-store';
import { packageAccessMode } from '../../services/packages/access';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../../services/packages/limits';
import { flatVersions, registrationIndex, registrationLeaf, searchResults, serviceIndex } from '../../services/packages/nuget/documents';
import { deleteNugetVersion, getNugetFile, getSymbolFile, nugetVersions, nupkgSizes, NUGET, publishNupkg, publishSnupkg, searchNuget } from '../../services/packages/nuget/nuget';
import { normalizeVersion } from '../../services/packages/nuget/nuspec';
import { entryV2, feedV2, flatten, metadataV2, serviceDocumentV2 } from '../../services/packages/nuget/documents-v2';
import type { PackageVersion } from '../../db/schema';
import { incrementDownloadCount } from '../../services/packages/queries';
import { authenticateToken } from '../../services/user/auth';
import { assertPackageAccess, packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's NuGet registry (routers/api/packages/nuget): v3 index.json, the v2 OData feed (service
// document, $metadata, Packages(), FindPackagesById(), Search()), PUT / (a multipart
// .nupkg, or the raw body), PUT symbolpackage, DELETE {id}/{version}, registration/, package/
// (the flat container), query, symbols/. NuGet clients send the token as X-NuGet-ApiKey.
// Errors are JSON {"Message": ...}.

const p = (req: Request, k: string) => String(req.params[k] ?? '');
const base = (req: Request) => `${req.ctx.config.server.root_url}api/packages/${encodeURIComponent(packageOwner(req).name)}/nuget`;

// Served to anyone, as Gitea does: NuGet clients read them before they send credentials.
const OPEN = new Set(['/', '/index.json', '/$metadata']);

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
  if (!(req.method === 'GET' && OPEN.has(req.path))) assertPackageAccess(req, res, 'read');
  next();
};

const unquote = (v: unknown) => String(v ?? '').replace(/^'(.*)'$/, '$1');
const xml = (res: Response, body: string) => { res.status(200).type('application/atom+xml; charset=utf-8').send(body); };

/** The v2 (OData) calls NuGet 2.x makes, matched by hand: their paths hold parentheses. */
const v2: RequestHandler = async (req, res, next) => {
  if (req.method !== 'GET') return next();
  const owner = packageOwner(req);
  let path: string;
  try { path = decodeURIComponent(req.path); } catch { return next(); }
  const one = /^\/Packages\(Id='([^']+)',Version='([^']+)'\)$/.exec(path);
  if (one) {
    const { pkg, versions } = await nugetVersions(req.ctx.db, owner, one[1]!);
    const wanted = (normalizeVersion(one[2]!) ?? one[2]!).toLowerCase();
    const v = versions.find((x) => x.lower_version === wanted);
    if (!v) { res.status(404).json({ Message: 'package does not exist' }); return; }
    xml(res, entryV2(base(req), pkg.name, v, (await nupkgSizes(req.ctx.db, pkg.name, [v])).get(v.id) ?? 0));
    return;
  }
  const m = /^\/(Packages|Search|FindPackagesById)\(\)(\/\$count)?$/.exec(path);
  if (!m) return next();
  const skip = Math.max(0, Number(req.query.$skip) || 0);
  const top = Math.min(100, Math.max(1, Number(req.query.$top) || 100));
  let items: { id: string; version: PackageVersion }[];
  if (m[1] === 'FindPackagesById') {
    const found = await nugetVersions(req.ctx.db, owner, unquote(req.query.id)).catch(() => null);
    items = found ? flatten([found]) : [];
  } else {
    items = flatten((await searchNuget(req.ctx.db, owner, unquote(req.query.searchTerm), 0, 10_000)).packages);
  }
  if (m[2]) { res.status(200).type('text/plain').send(String(items.length)); return; }
  const page = items.slice(skip, skip + top);
  const sized = [];
  for (const i of page) sized.push({ ...i, size: (await nupkgSizes(req.ctx.db, i.id, [i.version])).get(i.version.id) ?? 0 });
  xml(res, feedV2(base(req), items.length, sized));
};

/** The package: the first part of a multipart body (as nuget and dotnet send it), or the body itself. */
async function uploadedBlob(req: Request): Promise<StoredBlob> {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (!boundary) return storeUploadBody(req, NUGET);
  const { config, doer } = req.ctx;
  const content = firstPartContent(boundary);
  req.on('error', (err) => content.destroy(err));
  return storeBlob(req.ctx.h.blobs, req.pipe(content), {
    maxSize: uploadSizeLimit(config, doer, NUGET), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
}

async function publish(req: Request, res: Response, symbols: boolean): Promise<void> {
  const blob = await uploadedBlob(req);
  const input = { owner: packageOwner(req), creator: req.ctx.doer!, blob };
  if (symbols) await publishSnupkg(req.ctx.h, input);
  else await publishNupkg(req.ctx.h, input);
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
router.get('/', (req, res) => { xml(res, serviceDocumentV2(base(req))); });
router.get('/$metadata', (_req, res) => { res.status(200).type('application/xml; charset=utf-8').send(metadataV2()); });
router.use(v2);
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
  await deleteNugetVersion(req.ctx.h, req.ctx.doer!, packageOwner(req), p(req, 'id'), p(req, 'version'));
  res.status(204).end();
});

export const nugetRegistry: PackageRegistry = {
  router,
  ownReadCheck: true,
  replyError: (_req, res, status, message) => { res.status(status).json({ Message: message }); },
};
