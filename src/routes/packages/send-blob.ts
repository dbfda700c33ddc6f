import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { PackageBlob } from '../../db/schema';
import { blobKey, openBlob } from '../../services/packages/blob-store';
import { redirectDirect } from '../stored-send';
import { notModified, spanOf } from '../blob-send';

// Serving a package file as Gitea's helper.ServePackageFile (http.ServeContent): Content-Length,
// Last-Modified, ETag = the sha256, one byte range (206; 416 outside the file), HEAD without a
// body, and `Content-Disposition: attachment` with the file's name when asked.

export type SendOptions = {
  blob: PackageBlob;
  /** Content-Disposition attachment with this name. */
  filename?: string;
  contentType?: string;
  /** Unix seconds (the file's created_unix). */
  lastModified?: number;
  /** The redirect's status under [storage] serve_direct (Gitea's: 303; the container registry's 307). */
  directStatus?: 303 | 307;
};

function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams a blob from the store; a read error after the first byte cuts the connection. */
export async function sendPackageBlob(req: Request, res: Response, o: SendOptions): Promise<void> {
  const direct = { filename: o.filename, contentType: o.contentType, status: o.directStatus ?? 303 };
  if (await redirectDirect(req, res, req.ctx.config, req.ctx.h.blobs, blobKey(o.blob.hash_sha256), direct)) return;
  const etag = `"${o.blob.hash_sha256}"`;
  const modified = o.lastModified ? new Date(o.lastModified * 1000) : null;
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  if (modified) res.setHeader('Last-Modified', modified.toUTCString());
  res.setHeader('Content-Type', o.contentType ?? 'application/octet-stream');
  if (o.filename) res.setHeader('Content-Disposition', attachment(o.filename));
  if (notModified(req, etag, modified)) { res.status(304).end(); return; }
  const span = spanOf(req, o.blob.size);
  if (span === 'unsatisfiable') { res.status(416).setHeader('Content-Range', `bytes */${o.blob.size}`).end(); return; }
  res.setHeader('Content-Length', String(span ? span.end - span.start + 1 : o.blob.size));
  if (span) res.setHeader('Content-Range', `bytes ${span.start}-${span.end}/${o.blob.size}`);
  res.status(span ? 206 : 200);
  if (req.method === 'HEAD') { res.end(); return; }
  try {
    await pipeline(await openBlob(req.ctx.h.blobs, o.blob.hash_sha256, span ?? undefined), res);
  } catch (err) {
    if (!res.headersSent) throw err;
    res.destroy();
  }
}
