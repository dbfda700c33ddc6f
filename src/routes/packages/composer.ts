import express, { type Request, type Response } from 'express';
import {
  COMPOSER, composerPackageDocument, composerPackageNames, composerServiceIndex, searchComposer, uploadComposer,
} from '../../services/packages/composer/composer';
import { getFileOfVersion, getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Composer registry (routers/api/packages/composer): GET packages.json, search.json,
// list.json, p2/{vendor}/{project}[~dev].json, files/{package}/{version}/{filename}; PUT of a zip
// (?version= when composer.json has none). Errors are {"errors": [{status, message}]}.

const int = (v: unknown, d: number) => { const n = Number.parseInt(String(v ?? ''), 10); return Number.isFinite(n) && n > 0 ? n : d; };
const query = (req: Request, k: string) => String((req.query as Record<string, unknown>)[k] ?? '').trim();

async function upload(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, COMPOSER);
  await uploadComposer(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, blob, version: query(req, 'version') });
  res.status(201).end();
}

async function metadata(req: Request, res: Response): Promise<void> {
  const name = `${String(req.params.vendor)}/${String(req.params.project).replace(/~dev$/, '')}`;
  res.json(await composerPackageDocument(req.ctx.h, packageOwner(req), req.ctx.doer, name));
}

async function download(req: Request, res: Response): Promise<void> {
  const { db } = req.ctx;
  const v = await getVersion(db, packageOwner(req), COMPOSER, String(req.params.package), String(req.params.version));
  const { file, blob } = await getFileOfVersion(db, v.version, String(req.params.filename));
  if (req.method === 'GET') await incrementDownloadCount(db, v.version);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix, contentType: 'application/zip' });
}

async function search(req: Request, res: Response): Promise<void> {
  res.json(await searchComposer(req.ctx.h, packageOwner(req), {
    query: query(req, 'q'), type: query(req, 'type'), page: int(query(req, 'page'), 1), perPage: Math.min(int(query(req, 'per_page'), 30), 50),
  }));
}

const router = express.Router();
router.get('/packages.json', (req, res) => { res.json(composerServiceIndex(req.ctx.config, packageOwner(req))); });
router.get('/search.json', search);
router.get('/list.json', async (req, res) => { res.json({ packageNames: await composerPackageNames(req.ctx.db, packageOwner(req)) }); });
router.get('/p2/:vendor/:project.json', metadata);
router.get('/files/:package/:version/:filename', download);
router.head('/files/:package/:version/:filename', download);
router.put('/', reqPackageAccess('write'), upload);

const replyError = (_req: Request, res: Response, status: number, message: string) => {
  res.status(status).json({ errors: [{ status, message }] });
};

export const composerRegistry: PackageRegistry = { router, replyError };
