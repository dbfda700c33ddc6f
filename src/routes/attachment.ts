import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { openAttachment, type Download } from '../services/issue/attachment-download';
import { spanOf } from './blob-send';
import { redirectDirect } from './stored-send';

// /attachments/{uuid}: uploaded files, outside the API as in Gitea. User content on the site's
// origin: never rendered as a page (HTML and XML are served as text), and sandboxed.

const INLINE = /^(?:image\/(?:png|jpeg|gif|webp|bmp|x-icon)|application\/pdf|text\/plain|video\/|audio\/)/;

function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function downloadAttachment(req: Request, res: Response): Promise<void> {
  await sendAttachmentFile(req, res, await openAttachment(req.ctx.h, String(req.params.uuid ?? ''), req.ctx.doer));
}

/** Serves an opened attachment with the headers above (also used by release downloads). */
export async function sendAttachmentFile(req: Request, res: Response, d: Download): Promise<void> {
  const { attachment, contentType } = d;
  const safeType = /^text\/(?:html|xml)/.test(contentType) ? 'text/plain; charset=utf-8' : contentType;
  // [storage] serve_direct: the bucket serves it (its own origin: no page of this site).
  if (await redirectDirect(req, res, req.ctx.config, req.ctx.h.blobs, d.key, { filename: attachment.name, contentType: safeType })) return;
  res.setHeader('Content-Type', safeType);
  res.setHeader('Content-Disposition', disposition(INLINE.test(safeType) ? 'inline' : 'attachment', attachment.name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', 'default-src \'none\'; style-src \'unsafe-inline\'; sandbox');
  res.setHeader('Cache-Control', 'private, max-age=300');
  res.setHeader('ETag', `"${attachment.uuid}"`);
  if (req.headers['if-none-match'] === `"${attachment.uuid}"`) {
    res.status(304).end();
    return;
  }
  res.setHeader('Accept-Ranges', 'bytes');
  const span = spanOf(req, d.size);
  if (span === 'unsatisfiable') { res.status(416).setHeader('Content-Range', `bytes */${d.size}`).end(); return; }
  res.setHeader('Content-Length', String(span ? span.end - span.start + 1 : d.size));
  if (span) res.setHeader('Content-Range', `bytes ${span.start}-${span.end}/${d.size}`);
  res.status(span ? 206 : 200);
  if (req.method === 'HEAD' || d.size === 0) { res.end(); return; }
  try {
    await pipeline(await d.open(span ?? undefined), res);
  } catch (err) {
    // Past the first byte the answer cannot change: the connection is cut.
    if (!res.headersSent) throw err;
    res.destroy();
  }
}
