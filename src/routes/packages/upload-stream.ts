import type { Request, RequestHandler, Response } from 'express';
import type { StorageEngine } from 'multer';
import { BadRequestError } from '../../lib/errors';
import { multer } from '../../lib/lazy-require';
import type { StoredBlob } from '../../services/packages/blob-store';
import { discardBlob, storeTypedBlob } from '../../services/packages/stored-upload';

// An upload's bytes streamed into the blob store, as Gitea's UploadStream reads them: the first
// file of a multipart (or urlencoded) form, or else the raw body. Text fields of the form come back
// too (swift's `metadata`). Nothing is held in memory or in a multer temp file.

export type StoredUpload = { blob: StoredBlob; filename: string; fields: Record<string, string> };
type UploadedFile = Express.Multer.File & { blob?: StoredBlob };

const storage = (type: string): StorageEngine => ({
  _handleFile(req, file, cb) {
    storeTypedBlob(req.ctx.h, req.ctx.doer, type, file.stream)
      .then((blob) => cb(null, { blob, size: blob.size } as Partial<UploadedFile>), (err: Error) => cb(err));
  },
  _removeFile(req, file, cb) {
    const blob = (file as UploadedFile).blob;
    if (!blob) { cb(null); return; }
    discardBlob(req.ctx.h, blob).then(() => cb(null), (err: Error) => cb(err));
  },
});

const parsers = new Map<string, RequestHandler>();
const parserOf = (type: string, field?: string) => {
  const key = `${type}:${field ?? '*'}`;
  let p = parsers.get(key);
  if (!p) {
    const m = multer()({ storage: storage(type), limits: { files: 1, fields: 50, parts: 60, fieldSize: 4 << 20 } });
    parsers.set(key, (p = field ? m.single(field) : m.any()));
  }
  return p;
};

function parseForm(req: Request, res: Response, type: string, field?: string): Promise<void> {
  return new Promise((resolve, reject) => parserOf(type, field)(req, res, (err?: unknown) => {
    if (err instanceof multer().MulterError) return reject(new BadRequestError(err.message));
    if (err instanceof Error && !('status' in err) && /multipart|boundary|unexpected end|form/i.test(err.message)) return reject(new BadRequestError(err.message));
    if (err) return reject(err as Error);
    resolve();
  }));
}

const isForm = (req: Request) => /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(req.headers['content-type'] ?? '');

/**
 * Stores the upload under the type's size limit: the form's file (`field`, or the first file of
 * any name) or the raw body. 400 when a form carries no file.
 */
export async function storeUpload(req: Request, res: Response, type: string, field?: string): Promise<StoredUpload> {
  if (!isForm(req)) return { blob: await storeTypedBlob(req.ctx.h, req.ctx.doer, type, req), filename: '', fields: {} };
  await parseForm(req, res, type, field);
  const file = (req.file ?? (Array.isArray(req.files) ? req.files[0] : undefined)) as UploadedFile | undefined;
  const fields = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]));
  if (!file?.blob) throw new BadRequestError('http: no such file');
  return { blob: file.blob, filename: file.originalname, fields };
}
