import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config/schema';
import { directUrl } from '../lib/blob-storage/direct';
import type { BlobStorage, SignedUrlOptions } from '../lib/blob-storage/storage';
import { notModified, spanOf } from './blob-send';

// Serving an object of the blob storage as Go's http.ServeContent does for Gitea's stored
// files: Content-Length, Last-Modified and ETag when known, one byte range (206; 416 outside
// the file), HEAD without a body; a store read error after the first byte cuts the connection.

export type StoredObject = {
  key: string; size: number; contentType: string;
  /** Content-Disposition: attachment with this name. */
  filename?: string;
  lastModified?: Date | null;
  etag?: string;
  /** More headers (Content-Encoding of a stored gzip file). */
  headers?: Record<string, string>;
};

export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function sendStored(req: Request, res: Response, store: BlobStorage, o: StoredObject): Promise<void> {
  if (o.etag) res.setHeader('ETag', o.etag);
  res.setHeader('Accept-Ranges', 'bytes');
  if (o.lastModified) res.setHeader('Last-Modified', o.lastModified.toUTCString());
  res.setHeader('Content-Type', o.contentType);
  if (o.filename) res.setHeader('Content-Disposition', attachmentDisposition(o.filename));
  for (const [k, v] of Object.entries(o.headers ?? {})) res.setHeader(k, v);
  if (notModified(req, o.etag ?? '', o.lastModified ?? null) && (o.etag || o.lastModified)) { res.status(304).end(); return; }
  const span = spanOf(req, o.size);
  if (span === 'unsatisfiable') { res.status(416).setHeader('Content-Range', `bytes */${o.size}`).end(); return; }
  res.setHeader('Content-Length', String(span ? span.end - span.start + 1 : o.size));
  if (span) res.setHeader('Content-Range', `bytes ${span.start}-${span.end}/${o.size}`);
  res.status(span ? 206 : 200);
  if (req.method === 'HEAD') { res.end(); return; }
  try {
    await pipeline(await store.open(o.key, span ?? undefined), res);
  } catch (err) {
    if (!res.headersSent) throw err;
    res.destroy();
  }
}

/**
 * Gitea's SERVE_DIRECT: a GET answered with a redirect to the bucket (303 as Gitea's
 * ctx.Redirect, 307 for the container registry, 302 for artifacts); whether it was. A HEAD is
 * still answered here: a presigned GET URL is for GET (Range headers go along to the bucket).
 */
export async function redirectDirect(
  req: Request, res: Response, config: Config, store: BlobStorage, key: string,
  opts: Omit<SignedUrlOptions, 'expiresSec'> & { status?: 302 | 303 | 307 } = {},
): Promise<boolean> {
  if (req.method !== 'GET') return false;
  const { status = 303, ...signed } = opts;
  const url = await directUrl(config, store, key, signed);
  if (!url) return false;
  res.redirect(status, url);
  return true;
}
