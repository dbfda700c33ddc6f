import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DB } from '../../db/connect';
import { BadRequestError, NotFoundError, RangeNotSatisfiableError } from '../../lib/errors';
import { deleteUploadRow, findUpload, insertUpload, setUploadReceived, setUploadState, staleUploads } from '../../models/package-search';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { blobKey, HashingCounter, type StoredBlob } from './blob-store';

// Chunked upload sessions (the container registry's blob uploads): a row in package_blob_upload
// (offset and the store's state) and the bytes in the blob storage under packages/uploads/<id>
// (on local disk the file the data directory always had; in a bucket a multipart upload), so
// consecutive chunks may reach different nodes. Chunks append at the exact offset received so
// far; finishing joins them, hashes the result by reading it (a hash's state cannot be kept
// between nodes, so hash_state stays '') and moves it to its content address.

export type UploadSession = { id: string; bytesReceived: number };
const nowUnix = () => Math.floor(Date.now() / 1000);

/** The session's key in the store; an id that cannot be one is no session. */
function uploadKey(id: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new NotFoundError('upload does not exist');
  return `packages/uploads/${id}`;
}

/** Starts a session: its row, and what the store keeps for it. */
export async function createUploadSession(db: DB, store: BlobStorage): Promise<UploadSession> {
  const id = crypto.randomUUID();
  const state = await store.chunks.begin(uploadKey(id));
  await insertUpload(db, id, state, nowUnix());
  return { id, bytesReceived: 0 };
}

async function sessionRow(db: DB, id: string) {
  const row = await findUpload(db, id);
  if (!row) throw new NotFoundError('upload does not exist');
  return row;
}

/** The session, or NotFoundError. */
export async function getUploadSession(db: DB, id: string): Promise<UploadSession> {
  const row = await sessionRow(db, id);
  return { id: row.id, bytesReceived: row.bytes_received };
}

/**
 * Appends a chunk. `offset` (when the client states one, e.g. a Content-Range start) must equal
 * the bytes received so far: otherwise RangeNotSatisfiableError (416), as it is when another
 * chunk of the session landed meanwhile (on this node or another). A chunk cut short (client
 * abort) leaves the session as it was.
 */
export async function appendUploadChunk(db: DB, store: BlobStorage, id: string, input: Readable, offset?: number, maxSize = -1): Promise<UploadSession> {
  const row = await sessionRow(db, id);
  const from = row.bytes_received;
  if (offset !== undefined && offset !== from) throw new RangeNotSatisfiableError(`chunk at offset ${offset}, expected ${from}`);
  const limit = maxSize < 0 ? -1 : maxSize - from;
  const { state, size } = await store.chunks.append(uploadKey(id), row.store_state, from, input, { maxSize: limit });
  if (!(await setUploadReceived(db, id, from, from + size, state, nowUnix()))) {
    throw new RangeNotSatisfiableError(`another chunk reached offset ${from} first`);
  }
  return { id, bytesReceived: from + size };
}

async function hashStored(store: BlobStorage, key: string): Promise<{ size: number; hashes: StoredBlob['hashes'] }> {
  const counter = new HashingCounter();
  await pipeline(await store.open(key), counter, async function* (source) { for await (const _ of source) { /* drain */ } });
  return { size: counter.size, hashes: counter.digests() };
}

/**
 * Ends a session into the blob store. `expectedSha256` (hex, without "sha256:") must match the
 * bytes, else BadRequestError (400) and the session stays so the client may retry or delete it.
 * The blob has no row yet: pass it on to createPackageAndAddFile / addFileToExistingVersion.
 */
export async function finishUploadSession(db: DB, store: BlobStorage, id: string, expectedSha256?: string): Promise<StoredBlob> {
  const row = await sessionRow(db, id);
  const key = uploadKey(id);
  const state = await store.chunks.complete(key, row.store_state);
  if (state !== row.store_state) await setUploadState(db, id, state);
  const hashed = await hashStored(store, key);
  if (expectedSha256 !== undefined && expectedSha256.toLowerCase() !== hashed.hashes.sha256) {
    throw new BadRequestError('digest does not match the uploaded content');
  }
  const r = await store.adoptObject((h) => blobKey(h.sha256), key, hashed);
  await deleteUploadRow(db, id);
  return { hashes: r.hashes, size: r.size, created: r.created };
}

/** Drops a session and its bytes (missing is fine). */
export async function deleteUploadSession(db: DB, store: BlobStorage, id: string): Promise<void> {
  let key: string;
  try { key = uploadKey(id); } catch { return; }
  const row = await findUpload(db, id);
  // The bytes first: should the store fail, the row stays for the next clean-up.
  await store.chunks.abort(key, row?.store_state ?? '');
  await deleteUploadRow(db, id);
}

/** Sessions untouched since `beforeUnix` (cleanup_packages): aborted in the store, their rows removed. */
export async function removeStaleUploads(db: DB, store: BlobStorage, beforeUnix: number): Promise<number> {
  const stale = await staleUploads(db, beforeUnix);
  for (const s of stale) await deleteUploadSession(db, store, s.id);
  return stale.length;
}
