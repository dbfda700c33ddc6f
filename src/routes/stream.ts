import type { Request, Response } from 'express';
import type { Download } from '../services/repo/archive';
import { notModified } from './blob-send';

/** `attachment` with an ASCII fallback name and the exact UTF-8 one (RFC 6266). */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Streams git's output straight to the client. Headers go out with the first bytes; if git
 * fails before any, the client gets a 500; if it fails later, the connection is cut so a
 * truncated file is never taken for a whole one. A client that leaves stops git.
 */
export async function sendStream(res: Response, d: Download, headers: Record<string, string>): Promise<void> {
  const s = await d.open();
  res.on('close', () => s.kill());
  res.status(200);
  res.setHeader('Content-Type', d.contentType);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  s.stdout.pipe(res, { end: false });
  const { code, stderr } = await s.done;
  if (code === 0) {
    res.end();
    return;
  }
  if (!res.headersSent) {
    for (const k of Object.keys(headers)) res.removeHeader(k);
    throw new Error(`git ${d.format} failed (${code}): ${stderr.trim()}`);
  }
  res.destroy();
}

/**
 * An archive of a commit: the same bytes for the same commit and format, so the ETag names both
 * and a fresh conditional request gets 304 without running git. Archives are made on the fly,
 * so a Range header is ignored (the whole archive, 200, as RFC 9110 allows).
 */
export async function sendArchive(req: Request, res: Response, d: Download, headers: Record<string, string>): Promise<void> {
  const etag = `"${d.commit}.${d.format}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'none');
  if (d.lastModified) res.setHeader('Last-Modified', d.lastModified.toUTCString());
  if (notModified(req, etag, d.lastModified ?? null)) {
    for (const [k, v] of Object.entries(headers)) if (k === 'Cache-Control') res.setHeader(k, v);
    res.status(304).end();
    return;
  }
  await sendStream(res, d, { 'Content-Disposition': attachment(d.filename), ...headers });
}
