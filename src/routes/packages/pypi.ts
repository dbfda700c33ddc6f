import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { StorageEngine } from 'multer';
import { BadRequestError } from '../../lib/errors';
import { multer } from '../../lib/lazy-require';
import { storeBlob, type StoredBlob } from '../../services/packages/blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../../services/packages/limits';
import { getFileOfVersion, getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { normalizePypiName } from '../../services/packages/pypi/names';
import { pypiSimplePage } from '../../services/packages/pypi/simple';
import { discardPypiBlob, PYPI, uploadPypiFile } from '../../services/packages/pypi/upload';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import type { PackageRegistry } from './index';

// Gitea's PyPI registry (routers/api/packages/pypi): POST / (twine's multipart upload),
// GET simple/{id} (PEP 503 page), GET files/{id}/{version}/{filename}. Errors are plain text.

type UploadedFile = Express.Multer.File & { blob?: StoredBlob };

/** Streams the `content` part straight into the blob store (never into memory or a multer temp file). */
const blobStorage: StorageEngine = {
  _handleFile(req, file, cb) {
    const { config, doer } = req.ctx;
    storeBlob(req.ctx.h.blobs, file.stream, {
      maxSize: uploadSizeLimit(config, doer, PYPI), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
    }).then((blob) => cb(null, { blob, size: blob.size } as Partial<UploadedFile>), (err: Error) => cb(err));
  },
  _removeFile(req, file, cb) {
    const blob = (file as UploadedFile).blob;
    if (!blob) { cb(null); return; }
    discardPypiBlob(req.ctx.h, blob).then(() => cb(null), (err: Error) => cb(err));
  },
};

// Text fields are held in memory (long_description is a whole README): capped.
let form: RequestHandler | undefined;
const formParser = () => (form ??= multer()({ storage: blobStorage, limits: { files: 1, fields: 500, parts: 600, fieldSize: 4 << 20 } }).single('content'));

/** multer's form errors (limits, an unexpected file field, a broken body) are the client's: 400. */
const parseForm: RequestHandler = (req, res, next: NextFunction) => {
  formParser()(req, res, (err?: unknown) => {
    if (err instanceof multer().MulterError) return next(new BadRequestError(err.message));
    if (err instanceof Error && !('status' in err) && /multipart|boundary|unexpected end/i.test(err.message)) {
      return next(new BadRequestError(err.message));
    }
    next(err as Error | undefined);
  });
};

async function upload(req: Request, res: Response): Promise<void> {
  const file = req.file as UploadedFile | undefined;
  if (!file?.blob) throw new BadRequestError('http: no such file');
  const { doer } = req.ctx;
  await uploadPypiFile(req.ctx.h, {
    owner: packageOwner(req), creator: doer!, fields: (req.body ?? {}) as Record<string, string | string[]>,
    filename: file.originalname, blob: file.blob,
  });
  res.status(201).end();
}

async function simple(req: Request, res: Response): Promise<void> {
  const html = await pypiSimplePage(req.ctx.h, packageOwner(req), String(req.params.id));
  res.status(200).type('text/html; charset=utf-8').send(html);
}

async function download(req: Request, res: Response): Promise<void> {
  const name = normalizePypiName(String(req.params.id));
  const v = await getVersion(req.ctx.db, packageOwner(req), PYPI, name, String(req.params.version));
  const { file, blob } = await getFileOfVersion(req.ctx.db, v.version, String(req.params.filename));
  if (file.is_lead && req.method === 'GET') await incrementDownloadCount(req.ctx.db, v.version);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix });
}

const router = express.Router();
router.post('/', reqPackageAccess('write'), parseForm, upload);
router.get('/files/:id/:version/:filename', download);
router.head('/files/:id/:version/:filename', download);
router.get('/simple/:id', simple);

export const pypiRegistry: PackageRegistry = { router };
