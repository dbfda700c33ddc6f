import type { Request, Response } from 'express';
import { storeBlob, type StoredBlob } from '../../services/packages/blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../../services/packages/limits';
import type { IndexFile } from '../../services/packages/repo-index/store';
import { sendPackageBlob } from './send-blob';

// Shared by the registries whose upload is the raw request body (debian, rpm, arch, alpine,
// conda, cran, conan, nuget symbols): streamed into the blob store, cut at the type's limit with
// Gitea's quota answer (403); and serving a built repository index file.

export function storeUploadBody(req: Request, type: string): Promise<StoredBlob> {
  const { config, doer } = req.ctx;
  return storeBlob(req.ctx.h.blobs, req, {
    maxSize: uploadSizeLimit(config, doer, type), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
}

/** A built index file (never cached for long: it changes with every upload). */
export async function sendIndexFile(req: Request, res: Response, file: IndexFile, contentType: string): Promise<void> {
  await sendPackageBlob(req, res, { blob: file.blob, contentType, lastModified: file.createdUnix });
}
