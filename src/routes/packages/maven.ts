import express, { type Request, type Response } from 'express';
import { parseCoordinates } from '../../services/packages/maven/coordinates';
import { artifactMetadata, mavenFile, uploadMavenFile } from '../../services/packages/maven/maven';
import { incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import type { PackageRegistry } from './index';

// Gitea's Maven registry (routers/api/packages/maven): PUT/GET/HEAD of any path under
// /api/packages/{owner}/maven/{group/path}/{artifactId}/... Errors are plain text (the maven
// client shows none of them).

const CONTENT_TYPES: Record<string, string> = { '.jar': 'application/java-archive', '.pom': 'text/xml' };

const coordinates = (req: Request) => parseCoordinates(req.path);

async function upload(req: Request, res: Response): Promise<void> {
  const coords = coordinates(req);
  const { doer } = req.ctx;
  res.status(await uploadMavenFile(req.ctx.h, { owner: packageOwner(req), doer: doer!, coords, body: req })).end();
}

async function serveMetadata(req: Request, res: Response, coords: ReturnType<typeof coordinates>): Promise<void> {
  const doc = await artifactMetadata(req.ctx.db, packageOwner(req), coords);
  res.setHeader('Last-Modified', new Date(doc.lastModified * 1000).toUTCString());
  res.setHeader('Content-Type', doc.checksum ? 'text/plain; charset=utf-8' : 'text/xml');
  res.status(200).send(doc.body);
}

/** GET and HEAD: the generated maven-metadata.xml, a stored file or a stored file's checksum. */
async function download(req: Request, res: Response): Promise<void> {
  const coords = coordinates(req);
  if (coords.isMeta && coords.version === '') return serveMetadata(req, res, coords);
  const { db } = req.ctx;
  const f = await mavenFile(db, packageOwner(req), coords);
  if (f.checksum !== null) { res.status(200).type('text/plain; charset=utf-8').send(f.checksum); return; }
  if (f.file.is_lead && req.method === 'GET') await incrementDownloadCount(db, f.version);
  const ext = f.file.name.slice(f.file.name.lastIndexOf('.')).toLowerCase();
  await sendPackageBlob(req, res, {
    blob: f.blob, contentType: CONTENT_TYPES[ext], lastModified: f.file.created_unix,
    filename: req.method === 'GET' ? f.file.name : undefined,
  });
}

const router = express.Router();
router.get(/.*/, download);
router.head(/.*/, download);
router.put(/.*/, reqPackageAccess('write'), upload);

export const mavenRegistry: PackageRegistry = { router };
