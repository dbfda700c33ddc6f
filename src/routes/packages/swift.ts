import express, { type NextFunction, type Request, type Response } from 'express';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { incrementDownloadCount } from '../../services/packages/queries';
import {
  publishSwift, SWIFT, swiftArchive, swiftBaseUrl, swiftIdentifiers, swiftManifest, swiftRelease, swiftReleases,
} from '../../services/packages/swift/swift';
import { assertPackageAccess, packageOwner } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's Swift registry (routers/api/packages/swift), SE-0292: POST / and /login (whether the
// credentials work, before any access check), GET {scope}/{name}[.json], {scope}/{name}/{version}
// [.json|.zip|/Package.swift], PUT {scope}/{name}/{version}, GET identifiers?url=. Every answer
// carries Content-Version: 1; errors are application/problem+json {status, detail}.

const JSON_TYPE = 'application/vnd.swift.registry.v1+json';
const ZIP_TYPE = 'application/vnd.swift.registry.v1+zip';
const SWIFT_TYPE = 'application/vnd.swift.registry.v1+swift';

/** A client that asks for a media type must ask for this one (400 otherwise). */
function accept(req: Request, wanted: string): void {
  const a = req.headers.accept;
  if (a && a !== wanted) throw new BadRequestError(`Unexpected accept header. Should be '${wanted}'.`);
}

async function releases(req: Request, res: Response, scope: string, name: string): Promise<void> {
  accept(req, JSON_TYPE);
  const r = await swiftReleases(req.ctx.h, packageOwner(req), scope, name);
  res.setHeader('Link', `<${r.latest}>; rel="latest-version"`);
  res.json({ releases: r.releases });
}

async function manifest(req: Request, res: Response, scope: string, name: string, version: string): Promise<void> {
  accept(req, SWIFT_TYPE);
  const swiftVersion = String((req.query as Record<string, unknown>)['swift-version'] ?? '').trim();
  const m = await swiftManifest(req.ctx.db, packageOwner(req), scope, name, version, swiftVersion);
  if (!m) { res.redirect(303, `${swiftBaseUrl(req.ctx.config, packageOwner(req), scope, name)}/${version}/Package.swift`); return; }
  res.type('text/x-swift').setHeader('Content-Disposition', `attachment; filename="${m.filename}"`);
  res.setHeader('Last-Modified', new Date(m.created * 1000).toUTCString());
  res.send(m.content);
}

async function archive(req: Request, res: Response, scope: string, name: string, version: string): Promise<void> {
  accept(req, ZIP_TYPE);
  const f = await swiftArchive(req.ctx.db, packageOwner(req), scope, name, version);
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  res.setHeader('Digest', `sha256=${f.blob.hash_sha256}`);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, contentType: 'application/zip', lastModified: f.file.created_unix });
}

async function publish(req: Request, res: Response, scope: string, name: string, version: string): Promise<void> {
  assertPackageAccess(req, res, 'write');
  accept(req, JSON_TYPE);
  const up = await storeUpload(req, res, SWIFT, 'source-archive');
  await publishSwift(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, scope, name, version, metadata: up.fields.metadata ?? '', blob: up.blob });
  res.status(201).end();
}

/** Paths under {scope}/{name}: versions hold dots, so the suffixes are split by hand. */
async function packageRoutes(req: Request, res: Response, next: NextFunction): Promise<void> {
  const segs = req.path.split('/').slice(1).map((s) => { try { return decodeURIComponent(s); } catch { throw new BadRequestError('invalid path'); } });
  const [scope, rawName, version, file] = segs;
  if (!scope || !rawName || segs.length > 4) return next();
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (segs.length === 2 && read) return releases(req, res, scope, rawName.replace(/\.json$/, ''));
  if (segs.length === 4 && read && file === 'Package.swift') return manifest(req, res, scope, rawName, version!);
  if (segs.length !== 3) return next();
  if (req.method === 'PUT') return publish(req, res, scope, rawName, version!);
  if (!read) return next();
  if (version!.endsWith('.zip')) return archive(req, res, scope, rawName, version!.slice(0, -4));
  accept(req, JSON_TYPE);
  res.json(await swiftRelease(req.ctx.db, packageOwner(req), scope, rawName, version!.replace(/\.json$/, '')));
}

const login = (req: Request, res: Response) => {
  if (!req.ctx.doer) throw new UnauthorizedError();
  res.status(200).end();
};

const router = express.Router();
router.use((_req, res, next) => { res.setHeader('Content-Version', '1'); next(); });
router.post('/', login);
router.post('/login', login);
router.use((req, res, next) => { assertPackageAccess(req, res, 'read'); next(); });
router.get('/identifiers', async (req, res) => {
  accept(req, JSON_TYPE);
  const url = String((req.query as Record<string, unknown>).url ?? '').trim();
  if (!url) throw new BadRequestError('the url parameter is required');
  const identifiers = await swiftIdentifiers(req.ctx.db, packageOwner(req), url);
  if (!identifiers.length) throw new NotFoundError('no package has this repository URL');
  res.json({ identifiers });
});
router.use(packageRoutes);

const replyError = (_req: Request, res: Response, status: number, message: string) => {
  res.status(status).setHeader('Content-Version', '1');
  res.type('application/problem+json').send(JSON.stringify({ status, detail: message }));
};

export const swiftRegistry: PackageRegistry = { router, replyError, ownReadCheck: true };
