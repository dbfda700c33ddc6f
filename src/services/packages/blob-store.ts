import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStorage, BlobHashes, ByteRange, PutOptions } from '../../lib/blob-storage/storage';
import { removeStaleFiles } from '../../lib/blob-storage/spool';
import { spoolDir } from '../../lib/blob-storage/open';

// Package blobs (and LFS objects, which share them) in the instance's blob storage,
// content-addressed by SHA-256 under the key packages/blobs/<aa>/<bb>/<sha256>: on local disk
// that is <data_dir>/packages/blobs/..., the layout data directories have always had. Uploads
// stream into a temp file while every hash is computed; nothing is ever held whole in memory.

export { HashingCounter } from '../../lib/blob-storage/hashing';
export type { BlobHashes } from '../../lib/blob-storage/storage';
/** A stored blob: its hashes and size; its key is blobKey(hashes.sha256). */
export type StoredBlob = { hashes: BlobHashes; size: number; /** false: the same bytes were already stored. */ created: boolean };
export type StoreOptions = PutOptions;

const SHA256 = /^[0-9a-f]{64}$/;

export const packagesDir = (dataDir: string) => path.join(dataDir, 'packages');
export const tempDir = (dataDir: string) => spoolDir(dataDir);

/** A blob's key in the storage; throws on anything but a lowercase hex sha256 (no path tricks). */
export function blobKey(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return `packages/blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

/** Where a blob's bytes are with [storage] type = "local" (the data directory's layout). */
export const blobPath = (dataDir: string, sha256: string): string => path.join(dataDir, ...blobKey(sha256).split('/'));

const byContent = (h: BlobHashes) => blobKey(h.sha256);

/**
 * Streams `input` into the store. Errors (a client abort, maxSize) leave nothing behind and
 * reject; the blob is in place once this resolves. It has no database row yet: the package
 * service adds it (createPackageAndAddFile), or cleanup_packages never sees it: a blob without
 * a row is removed by removeBlobFile when the caller's transaction fails.
 */
export async function storeBlob(store: BlobStorage, input: Readable, opts: StoreOptions = {}): Promise<StoredBlob> {
  const r = await store.put(byContent, input, opts);
  return { hashes: r.hashes, size: r.size, created: r.created };
}

/** Stores a complete, hashed local file (a finished upload session), which is consumed. */
export async function adoptBlobFile(store: BlobStorage, file: string, hashed: { size: number; hashes: BlobHashes }): Promise<StoredBlob> {
  const r = await store.adopt(byContent, file, hashed);
  return { hashes: r.hashes, size: r.size, created: r.created };
}

/** A read stream of a blob, whole or the inclusive byte range. */
export const openBlob = (store: BlobStorage, sha256: string, range?: ByteRange): Promise<Readable> => store.open(blobKey(sha256), range);

export const blobExists = async (store: BlobStorage, sha256: string): Promise<boolean> => (await store.stat(blobKey(sha256))) !== null;

/** When the blob was last stored (written or deduplicated), unix ms; 0 when missing. */
export async function blobTouchedAt(store: BlobStorage, sha256: string): Promise<number> {
  return (await store.stat(blobKey(sha256)))?.modifiedMs ?? 0;
}

/** Removes a blob (missing is fine); the caller has checked no row references it. */
export async function removeBlobFile(store: BlobStorage, sha256: string): Promise<void> {
  await store.remove(blobKey(sha256));
}

/** Runs `fn` with a local file of the blob's bytes, for the parsers that read archives. */
export const withBlobFile = <T>(store: BlobStorage, sha256: string, fn: (file: string) => Promise<T> | T): Promise<T> =>
  store.withFile(blobKey(sha256), fn);

/** Temp files older than `olderThanMs` (uploads cut short by a crash), for cleanup_packages. */
export const removeStaleTempFiles = (dataDir: string, olderThanMs: number): number => removeStaleFiles(spoolDir(dataDir), olderThanMs);
