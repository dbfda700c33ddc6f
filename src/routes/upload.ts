import fs from 'node:fs';
import type { Request, Response } from 'express';
import type { Multer } from 'multer';
import { BadRequestError, PayloadTooLargeError } from '../lib/errors';
import { markForm } from './body-binding';
import { multer } from '../lib/lazy-require';

// Multipart uploads: one file field, spooled to disk under the data directory (uploads may be
// as large as [attachment] max_size), with the size limit enforced while receiving.

export type ReceivedFile = { tmpPath: string; originalName: string; size: number };

const cache = new Map<string, Multer>();

/** multer is loaded on the first upload: serving does not need it to start. */
function uploader(tmpDir: string, maxBytes: number): Multer {
  const key = `${tmpDir}\0${maxBytes}`;
  let m = cache.get(key);
  if (!m) {
    fs.mkdirSync(tmpDir, { recursive: true });
    m = multer()({
      dest: tmpDir,
      limits: { fileSize: maxBytes, files: 1 },
      // File names are UTF-8, as Go reads them; busboy's default would be latin1.
      defParamCharset: 'utf8',
    });
    cache.set(key, m);
  }
  return m;
}

function uploadError(err: unknown): Error {
  const code = (err as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return new PayloadTooLargeError('attachment size exceeds the limit');
  if (typeof code === 'string' && code.startsWith('LIMIT_')) return new BadRequestError((err as Error).message);
  if ((err as { status?: number }).status === 400 || /multipart|boundary/i.test((err as Error).message ?? '')) {
    return new BadRequestError((err as Error).message);
  }
  return err as Error;
}

/** Receives the file of form field `field`; 400 without one, 413 over `maxBytes`. */
export function receiveFile(req: Request, res: Response, opts: { field: string; tmpDir: string; maxBytes: number }): Promise<ReceivedFile> {
  const handler = uploader(opts.tmpDir, opts.maxBytes).single(opts.field);
  return new Promise((resolve, reject) => {
    handler(req, res, (err?: unknown) => {
      if (err) return reject(uploadError(err));
      markForm(req.body);
      const file = req.file;
      if (!file?.path) return reject(new BadRequestError(`no file in form field "${opts.field}"`));
      resolve({ tmpPath: file.path, originalName: file.originalname, size: file.size });
    });
  });
}
