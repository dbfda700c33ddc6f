import type { Request, Response } from 'express';
import { openAttachment, type Download } from '../services/issue/attachment-download';

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
  const { attachment, file, contentType } = d;
  const safeType = /^text\/(?:html|xml)/.test(contentType) ? 'text/plain; charset=utf-8' : contentType;
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
  await new Promise<void>((resolve, reject) => {
    res.sendFile(file, { etag: false, lastModified: false, dotfiles: 'allow' }, (err) => (err ? reject(err) : resolve()));
  });
}
