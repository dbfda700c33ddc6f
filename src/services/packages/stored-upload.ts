import type { Readable } from 'node:stream';
import type { User } from '../../db/schema';
import { blobBySha256 } from '../../models/package';
import { removeBlobFile, storeBlob, withBlobFile, type StoredBlob } from './blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from './limits';
import type { Hearth } from '../../hearth';

// An upload streamed into the blob store before its rows exist: registries that must read the
// package (a zip, a tarball) to learn its name and version store it first, parse the stored
// file, then write the rows. A refused package leaves no file behind.

/** Streams `input` into the store, cut past the type's size limit with Gitea's quota answer (403). */
export function storeTypedBlob(h: Hearth, doer: User | null, type: string, input: Readable): Promise<StoredBlob> {
  return storeBlob(h.blobs, input, {
    maxSize: uploadSizeLimit(h.config, doer, type), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
}

/** Removes a stored blob's file when no row references it (a refused or failed upload). */
export async function discardBlob(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
}

/** Runs a parser on a local file of a stored blob's bytes (a download while it runs, for a bucket). */
export const readStoredBlob = <T>(h: Hearth, blob: StoredBlob, fn: (file: string) => Promise<T> | T): Promise<T> =>
  withBlobFile(h.blobs, blob.hashes.sha256, fn);

/** Runs `fn` (parse, then create the rows); when it throws, the blob is discarded and the error rethrown. */
export async function withStoredBlob<T>(h: Hearth, blob: StoredBlob, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await discardBlob(h, blob);
    throw err;
  }
}
