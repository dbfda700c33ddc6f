import express, { type Request, type Response } from 'express';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../lib/errors';
import { typeSizeLimit } from '../../services/packages/limits';
import { getFileOfVersion, getVersion, incrementDownloadCount } from '../../services/packages/queries';
import {
  addNpmTag, deleteNpmPackage, deleteNpmTag, deleteNpmVersion, listNpmTags, NPM, npmPackageDocument,
  npmVersionByFile, publishNpm, searchNpm,
} from '../../services/packages/npm/registry';
import { assertPackageAccess, packageOwner } from './access';
import { sendPackageBlob } from './send-blob';
import type { PackageRegistry } from './index';

// Gitea's npm registry (routers/api/packages/npm, routes in routers/api/packages/api.go):
//   GET|PUT /{id}, GET /{id}/-/{version}/{filename}, GET /{id}/-/{filename},
//   DELETE /{id}/-/{version}/{filename}[/-rev/{rev}], DELETE|PUT /{id}/-rev/{rev},
//   GET /-/package/{id}/dist-tags, PUT|DELETE /-/package/{id}/dist-tags/{tag}, GET /-/v1/search.
// {id} is "name", "@scope/name" or "@scope%2fname" (as npm sends it), so the path is split by
// hand rather than by express patterns. Errors are {"error": message}.

const JSON_OVERHEAD = 16 * 1024 * 1024;
/** Without a LIMIT_SIZE_NPM the publish document (base64 tarball inside) is capped here. */
const DEFAULT_DOCUMENT_CAP = 256 * 1024 * 1024;

/** A small body, read whole with a cap (413 past it). */
async function readBody(req: Request, cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) throw new PayloadTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The publish document is one JSON body with the tarball inside: read with a cap, then parsed. */
async function readJsonBody(req: Request, cap: number): Promise<unknown> {
  const text = await readBody(req, cap);
  try { return JSON.parse(text); } catch { throw new BadRequestError('package is invalid'); }
}

const documentCap = (req: Request) => {
  if (req.ctx.doer?.is_admin) return DEFAULT_DOCUMENT_CAP;
  const limit = typeSizeLimit(req.ctx.config, NPM);
  return limit < 0 ? DEFAULT_DOCUMENT_CAP : Math.ceil(limit / 3) * 4 + JSON_OVERHEAD;
};

const dec = (s: string) => { try { return decodeURIComponent(s); } catch { throw new BadRequestError('invalid path'); } };

/** Splits "{id}/rest..." from raw path segments: "@scope/name", "@scope%2fname" or "name". */
function takeName(segs: string[]): { name: string; rest: string[] } {
  const first = dec(segs[0] ?? '');
  if (first.startsWith('@') && !first.includes('/') && segs.length > 1) return { name: `${first}/${dec(segs[1]!)}`, rest: segs.slice(2) };
  return { name: first, rest: segs.slice(1) };
}

async function publish(req: Request, res: Response): Promise<void> {
  assertPackageAccess(req, res, 'write');
  const document = await readJsonBody(req, documentCap(req));
  await publishNpm(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, document });
  res.status(201).end();
}

async function download(req: Request, res: Response, name: string, version: string | null, filename: string): Promise<void> {
  const { db } = req.ctx;
  const owner = packageOwner(req);
  const v = version === null ? await npmVersionByFile(db, owner, name, filename) : (await getVersion(db, owner, NPM, name, version)).version;
  const { file, blob } = await getFileOfVersion(db, v, filename);
  if (req.method === 'GET') await incrementDownloadCount(db, v);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix });
}

/** Routes under /{id}. */
async function packageRoute(req: Request, res: Response, name: string, rest: string[]): Promise<void> {
  const owner = packageOwner(req);
  const m = req.method;
  const read = m === 'GET' || m === 'HEAD';
  if (!rest.length && read) { res.json(await npmPackageDocument(req.ctx.h, owner, name)); return; }
  if (!rest.length && m === 'PUT') return publish(req, res);
  if (rest[0] === '-' && rest.length === 2 && read) return download(req, res, name, null, dec(rest[1]!));
  if (rest[0] === '-' && rest.length === 3 && read) return download(req, res, name, dec(rest[1]!), dec(rest[2]!));
  const deleteVersion = rest[0] === '-' && (rest.length === 3 || (rest.length === 5 && rest[3] === '-rev'));
  if (deleteVersion && m === 'DELETE') {
    assertPackageAccess(req, res, 'write');
    await deleteNpmVersion(req.ctx.h, req.ctx.doer!, owner, name, dec(rest[1]!));
    res.status(200).end();
    return;
  }
  if (rest[0] === '-rev' && rest.length === 2 && (m === 'DELETE' || m === 'PUT')) {
    assertPackageAccess(req, res, 'write');
    // PUT: npm tells which versions it still knows after an unpublish; Gitea ignores it.
    if (m === 'DELETE') await deleteNpmPackage(req.ctx.h, req.ctx.doer!, owner, name);
    res.status(200).end();
    return;
  }
  throw new NotFoundError();
}

/** /-/package/{id}/dist-tags[/{tag}]. */
async function tagsRoute(req: Request, res: Response, segs: string[]): Promise<void> {
  const { db } = req.ctx;
  const owner = packageOwner(req);
  const { name, rest } = takeName(segs);
  if (rest[0] !== 'dist-tags' || rest.length > 2) throw new NotFoundError();
  if (rest.length === 1 && req.method === 'GET') { res.json(await listNpmTags(db, owner, name)); return; }
  if (rest.length !== 2 || !['PUT', 'DELETE'].includes(req.method)) throw new NotFoundError();
  assertPackageAccess(req, res, 'write');
  const tag = dec(rest[1]!);
  if (req.method === 'DELETE') await deleteNpmTag(db, owner, name, tag);
  else {
    // The body is the version as a JSON string ("1.0.0"); Gitea trims the quotes.
    const body = (await readBody(req, 64 * 1024)).trim();
    await addNpmTag(db, owner, name, body.replace(/^"+|"+$/g, ''), tag);
  }
  res.status(200).end();
}

async function search(req: Request, res: Response): Promise<void> {
  const q = req.query as Record<string, unknown>;
  const num = (v: unknown, d: number) => { const n = Number.parseInt(String(v ?? ''), 10); return Number.isFinite(n) && n >= 0 ? n : d; };
  const size = Math.min(num(q.size, 20) || 20, 250);
  res.json(await searchNpm(req.ctx.h, packageOwner(req), { text: String(q.text ?? '').trim(), from: num(q.from, 0), size }));
}

async function dispatch(req: Request, res: Response): Promise<void> {
  const segs = req.path.split('/').slice(1).filter((s, i, all) => s !== '' || i < all.length - 1);
  if (segs[0] === '-' && segs[1] === 'v1' && segs[2] === 'search' && segs.length === 3 && req.method === 'GET') return search(req, res);
  if (segs[0] === '-' && segs[1] === 'package') return tagsRoute(req, res, segs.slice(2));
  if (!segs.length || !segs[0] || segs[0] === '-') throw new NotFoundError();
  const { name, rest } = takeName(segs);
  return packageRoute(req, res, name, rest);
}

const router = express.Router();
router.use(dispatch);

/** Gitea's npm apiError: {"error": message}. */
const replyError = (_req: Request, res: Response, status: number, message: string) => { res.status(status).json({ error: message }); };

export const npmRegistry: PackageRegistry = { router, replyError };
