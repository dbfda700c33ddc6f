import express, { type Request, type Response } from 'express';
import { PUB, pubApiUrl, pubArchive, pubVersion, pubVersions, uploadPub } from '../../services/packages/pub/pub';
import { getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Pub registry (routers/api/packages/pub): under api/packages, GET versions/new (where
// to upload), POST versions/new/upload (a form's `file`), GET versions/new/finalize/{name}/{version},
// GET {name}, {name}/{version}, {name}/files/{version}.tar.gz. Answers are
// application/vnd.pub.v2+json; errors {"error": {code, message}}.

const PUB_JSON = 'application/vnd.pub.v2+json';
const send = (res: Response, status: number, body: unknown) => { res.status(status).type(PUB_JSON).send(JSON.stringify(body)); };
const owner = packageOwner;

async function upload(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, PUB, 'file');
  const p = await uploadPub(req.ctx.h, { owner: owner(req), doer: req.ctx.doer!, blob });
  res.setHeader('Location', `${pubApiUrl(req.ctx.config, owner(req))}/versions/new/finalize/${encodeURIComponent(p.name)}/${encodeURIComponent(p.version)}`);
  res.status(204).end();
}

async function finalize(req: Request, res: Response): Promise<void> {
  await getVersion(req.ctx.db, owner(req), PUB, String(req.params.name), String(req.params.version));
  send(res, 200, { success: { message: '' } });
}

async function download(req: Request, res: Response): Promise<void> {
  const f = await pubArchive(req.ctx.db, owner(req), String(req.params.name), String(req.params.version).replace(/\.tar\.gz$/, ''));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix, contentType: 'application/gzip' });
}

const router = express.Router();
router.get('/api/packages/versions/new', reqPackageAccess('write'), (req, res) => {
  send(res, 200, { url: `${pubApiUrl(req.ctx.config, owner(req))}/versions/new/upload`, fields: {} });
});
router.post('/api/packages/versions/new/upload', reqPackageAccess('write'), upload);
router.get('/api/packages/versions/new/finalize/:name/:version', reqPackageAccess('write'), finalize);
router.get('/api/packages/:name', async (req, res) => { send(res, 200, await pubVersions(req.ctx.h, owner(req), String(req.params.name))); });
router.get('/api/packages/:name/files/:version', download);
router.head('/api/packages/:name/files/:version', download);
router.get('/api/packages/:name/:version', async (req, res) => {
  send(res, 200, await pubVersion(req.ctx.h, owner(req), String(req.params.name), String(req.params.version)));
});

const CODES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Request Entity Too Large' };
const replyError = (_req: Request, res: Response, status: number, message: string) => {
  send(res, status, { error: { code: CODES[status] ?? String(status), message } });
};

export const pubRegistry: PackageRegistry = { router, replyError };
