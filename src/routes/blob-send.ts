import { once } from 'node:events';
import type { Request, Response } from 'express';
import type { GitStream } from '../git/stream';

// Sending a git blob as Gitea's ServeBlob does (the API's raw/media and the web's raw/media):
// type sniffed from the first bytes, ETag = blob id, Last-Modified = the last commit touching
// the file, 304 for a fresh conditional request, one byte range (206, or 416 outside the
// file), streamed whatever the size and never taken for markup on the site's origin.

export type BlobFile = {
  name: string;
  sha: string;
  size: number;
  lastModified: Date | null;
  open: () => GitStream;
};

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

/**
 * RFC 9110's evaluation of If-None-Match (weak comparison, `*`), else If-Modified-Since, for a
 * GET or HEAD. Unlike express's req.fresh, a request's `Cache-Control: no-cache` does not stop
 * it: that directive is for caches (fetch() adds it to every conditional request), and Go's
 * http.ServeContent, which Gitea uses, ignores it too.
 */
/** The one byte range a request asks for, null for the whole, or 'unsatisfiable' (416). */
export function spanOf(req: Request, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!req.headers.range || size === 0) return null;
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

export function notModified(req: Request, etag: string, lastModified: Date | null): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const inm = req.headers['if-none-match'];
  if (inm) {
    const bare = etag.replace(/^W\//, '');
    return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
  }
  const ims = req.headers['if-modified-since'];
  if (!ims || !lastModified) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

type Span = { start: number; end: number } | null;

/** The one range to send (null: the whole file), or 'unsatisfiable'. Several ranges get the whole file. */
function rangeOf(req: Request, file: BlobFile, etag: string): Span | 'unsatisfiable' {
  if (!req.headers.range || file.size === 0) return null;
  const ifRange = req.headers['if-range'];
  if (ifRange && ifRange !== etag && ifRange !== file.lastModified?.toUTCString()) return null;
  const ranges = req.range(file.size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

function setTypeHeaders(res: Response, file: BlobFile, head: Buffer, span: Span): void {
  const type = sniff(head);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Disposition', disposition(type, file.name));
  res.setHeader('Content-Length', String(span ? span.end - span.start + 1 : file.size));
  if (span) res.setHeader('Content-Range', `bytes ${span.start}-${span.end}/${file.size}`);
  res.status(span ? 206 : 200);
}

export async function sendBlob(req: Request, res: Response, file: BlobFile): Promise<void> {
  const etag = `"${file.sha}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', 'default-src \'none\'; style-src \'unsafe-inline\'; sandbox');
  if (file.lastModified) res.setHeader('Last-Modified', file.lastModified.toUTCString());
  if (notModified(req, etag, file.lastModified)) {
    res.status(304).end();
    return;
  }
  const span = rangeOf(req, file, etag);
  if (span === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${file.size}`).end();
    return;
  }
  await pipeBlob(req, res, file, span);
}

/**
 * Waits for 'drain' or 'close', then takes both listeners off again: left behind, one per
 * full buffer, they piled up on a large download (MaxListenersExceededWarning).
 */
async function drainedOrClosed(res: Response): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: ac.signal }), once(res, 'close', { signal: ac.signal })]);
  } finally {
    ac.abort();
  }
}

/** Streams the blob (or its span); a git failure after the first byte cuts the connection. */
async function pipeBlob(req: Request, res: Response, file: BlobFile, span: Span): Promise<void> {
  const s = file.open();
  res.on('close', () => s.kill());
  const from = span?.start ?? 0;
  const to = span ? span.end + 1 : Infinity;
  let offset = 0;
  let started = false;
  for await (const chunk of s.stdout as AsyncIterable<Buffer>) {
    if (!started) setTypeHeaders(res, file, chunk, span);
    started = true;
    if (req.method === 'HEAD') break;
    const part = chunk.subarray(Math.max(0, from - offset), Math.max(0, Math.min(chunk.length, to - offset)));
    offset += chunk.length;
    if (part.length && !res.write(part)) await drainedOrClosed(res);
    if (res.destroyed || offset >= to) break;
  }
  if (req.method === 'HEAD' || offset >= to) s.kill();
  const { code, stderr } = await s.done;
  if (res.destroyed) return;
  if (code !== 0 && req.method !== 'HEAD' && offset < to) {
    if (!started) throw new Error(`git cat-file failed (${code}): ${stderr.trim()}`);
    res.destroy(); // never let a truncated file pass for a whole one
    return;
  }
  if (!started) setTypeHeaders(res, file, Buffer.alloc(0), span);
  res.end();
}
