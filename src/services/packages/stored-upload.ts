import type { Readable } from 'node:stream';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { blobBySha256 } from '../../models/package';
import { blobPath, removeBlobFile, storeBlob, type StoredBlob } from './blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from './limits';
import type { Hearth } from '../../hearth';

// An upload streamed into the blob store before its rows exist: registries that must read the
// package (a zip, a tarball) to learn its name and version store it first, parse the stored
// file, then write the rows. A refused package leaves no file behind.

/** Streams `input` into the store, cut past the type's size limit with Gitea's quota answer (403). */
export function storeTypedBlob(config: Config, doer: User | null, type: string, input: Readable): Promise<StoredBlob> {
  return storeBlob(config.server.data_dir, input, {
    maxSize: uploadSizeLimit(config, doer, type), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
}

/** Removes a stored blob's file when no row references it (a refused or failed upload). */
export async function discardBlob(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) removeBlobFile(h.config.server.data_dir, blob.hashes.sha256);
}

/** The file of a stored blob, for parsers that read it back. */
export const storedBlobPath = (config: Config, blob: StoredBlob) => blobPath(config.server.data_dir, blob.hashes.sha256);

/** Runs `fn` (parse, then create the rows); when it throws, the blob is discarded and the error rethrown. */
export async function withStoredBlob<T>(h: Hearth, blob: StoredBlob, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await discardBlob(h, blob);
    throw err;
  }
}
