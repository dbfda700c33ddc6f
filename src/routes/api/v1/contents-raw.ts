import { once } from 'node:events';
import type { Request, Response } from 'express';
import type { RawFile } from '../../../services/contents-raw';

// Sending a blob as Gitea's ServeBlob does: type sniffed from the first bytes, ETag = blob id,
// inline for text, images and PDFs, streamed whatever the size.

const MAGIC: [RegExp, string][] = [
  [/^\x89PNG\r\n\x1a\n/, 'image/png'],
  [/^\xff\xd8\xff/, 'image/jpeg'],
  [/^GIF8[79]a/, 'image/gif'],
  [/^RIFF....WEBP/s, 'image/webp'],
  [/^%PDF-/, 'application/pdf'],
];

function sniff(head: Buffer): string {
  const latin = head.subarray(0, 16).toString('latin1');
  for (const [re, type] of MAGIC) if (re.test(latin)) return type;
  return head.subarray(0, 8000).includes(0) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

function disposition(type: string, name: string): string {
  const kind = /^(text\/|image\/|application\/pdf)/.test(type) ? 'inline' : 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function setHeaders(res: Response, file: RawFile, head: Buffer): void {
  const type = sniff(head);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', disposition(type, file.name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export async function sendRawFile(req: Request, res: Response, file: RawFile): Promise<void> {
  const etag = `"${file.sha}"`;
  res.setHeader('X-Gitea-Object-Type', file.type);
  res.setHeader('ETag', etag);
  if (file.lastModified) res.setHeader('Last-Modified', file.lastModified.toUTCString());
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end();
    return;
  }
  const s = file.open();
  res.on('close', () => s.kill());
  let started = false;
  for await (const chunk of s.stdout as AsyncIterable<Buffer>) {
    if (!started) setHeaders(res, file, chunk);
    started = true;
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    if (res.destroyed) break;
  }
  const { code, stderr } = await s.done;
  if (res.destroyed) return;
  if (code !== 0) {
    if (!started) throw new Error(`git cat-file failed (${code}): ${stderr.trim()}`);
    res.destroy(); // never let a truncated file pass for a whole one
    return;
  }
  if (!started) setHeaders(res, file, Buffer.alloc(0));
  res.end();
}
