import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DB } from '../../db/connect';
import { BadRequestError, NotFoundError, RangeNotSatisfiableError } from '../../lib/errors';
import { deleteUploadRow, findUpload, insertUpload, setUploadReceived, staleUploads } from '../../models/package-search';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { adoptBlobFile, HashingCounter, packagesDir, type StoredBlob } from './blob-store';

// Chunked upload sessions (the container registry's blob uploads): a row in package_blob_upload
// and the bytes so far in <data_dir>/packages/uploads/<id>. Chunks append at the exact offset
// received so far; finishing hashes the file once more (node cannot persist a hash's state, so
// hash_state stays '') and moves it into the blob store (uploads it, for a bucket).

export type UploadSession = { id: string; bytesReceived: number };
const nowUnix = () => Math.floor(Date.now() / 1000);
const uploadsDir = (dataDir: string) => path.join(packagesDir(dataDir), 'uploads');

function uploadPath(dataDir: string, id: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new NotFoundError('upload does not exist');
  return path.join(uploadsDir(dataDir), id);
}

/** Starts a session: an empty file and its row. */
export async function createUploadSession(db: DB, dataDir: string): Promise<UploadSession> {
  const id = crypto.randomUUID();
  fs.mkdirSync(uploadsDir(dataDir), { recursive: true });
  fs.writeFileSync(uploadPath(dataDir, id), '');
  await insertUpload(db, id, nowUnix());
  return { id, bytesReceived: 0 };
}

/** The session, or NotFoundError. */
export async function getUploadSession(db: DB, id: string): Promise<UploadSession> {
  const row = await findUpload(db, id);
  if (!row) throw new NotFoundError('upload does not exist');
  return { id: row.id, bytesReceived: row.bytes_received };
}

/**
 * Appends a chunk. `offset` (when the client states one, e.g. a Content-Range start) must equal
 * the bytes received so far: otherwise RangeNotSatisfiableError (416). A chunk cut short
 * (client abort) is truncated away so the session stays consistent.
 */
export async function appendUploadChunk(db: DB, dataDir: string, id: string, input: Readable, offset?: number, maxSize = -1): Promise<UploadSession> {
  const session = await getUploadSession(db, id);
  if (offset !== undefined && offset !== session.bytesReceived) {
    throw new RangeNotSatisfiableError(`chunk at offset ${offset}, expected ${session.bytesReceived}`);
  }
  const file = uploadPath(dataDir, id);
  const counter = new HashingCounter(maxSize < 0 ? -1 : maxSize - session.bytesReceived);
  try {
    await pipeline(input, counter, fs.createWriteStream(file, { flags: 'r+', start: session.bytesReceived }));
  } catch (err) {
    fs.truncateSync(file, session.bytesReceived);
    throw err;
  }
  const bytes = session.bytesReceived + counter.size;
  await setUploadReceived(db, id, bytes, nowUnix());
  return { id, bytesReceived: bytes };
}

/**
 * Ends a session into the blob store. `expectedSha256` (hex, without "sha256:") must match the
 * bytes, else BadRequestError (400) and the session stays so the client may retry or delete it.
 * The blob has no row yet: pass it on to createPackageAndAddFile / addFileToExistingVersion.
 */
export async function finishUploadSession(db: DB, store: BlobStorage, dataDir: string, id: string, expectedSha256?: string): Promise<StoredBlob> {
  await getUploadSession(db, id);
  const file = uploadPath(dataDir, id);
  const counter = new HashingCounter();
  await pipeline(fs.createReadStream(file), counter, async function* (source) { for await (const _ of source) { /* drain */ } });
  const hashes = counter.digests();
  if (expectedSha256 !== undefined && expectedSha256.toLowerCase() !== hashes.sha256) {
    throw new BadRequestError('digest does not match the uploaded content');
  }
  const blob = await adoptBlobFile(store, file, { size: counter.size, hashes });
  await deleteUploadRow(db, id);
  return blob;
}

/** Drops a session and its bytes (missing is fine). */
export async function deleteUploadSession(db: DB, dataDir: string, id: string): Promise<void> {
  await deleteUploadRow(db, id);
  try { fs.rmSync(uploadPath(dataDir, id), { force: true }); } catch { /* an id that cannot be a file */ }
}

/** Sessions untouched since `beforeUnix` (cleanup_packages). */
export async function removeStaleUploads(db: DB, dataDir: string, beforeUnix: number): Promise<number> {
  const stale = await staleUploads(db, beforeUnix);
  for (const s of stale) await deleteUploadSession(db, dataDir, s.id);
  return stale.length;
}
