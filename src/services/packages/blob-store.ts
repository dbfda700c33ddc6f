import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { PayloadTooLargeError } from '../../lib/errors';
import { moveFile } from '../../lib/move-file';

// Package blobs on disk, content-addressed by SHA-256: <data_dir>/packages/blobs/<aa>/<bb>/<sha256>.
// Uploads stream into a temp file under the data dir (same file system: the rename is atomic)
// while every hash is computed; nothing is ever held whole in memory.

export type BlobHashes = { md5: string; sha1: string; sha256: string; sha512: string };
/** A stored blob: its hashes and size; the file is at blobPath(dataDir, hashes.sha256). */
export type StoredBlob = { hashes: BlobHashes; size: number; /** false: the same bytes were already stored. */ created: boolean };
export type StoreOptions = {
  /** Bytes allowed (-1 or undefined: no limit); past it the upload is cut and PayloadTooLargeError thrown. */
  maxSize?: number;
  /** The error thrown past maxSize (default PayloadTooLargeError, 413). */
  tooLarge?: () => Error;
};

const SHA256 = /^[0-9a-f]{64}$/;

export const packagesDir = (dataDir: string) => path.join(dataDir, 'packages');
export const tempDir = (dataDir: string) => path.join(packagesDir(dataDir), 'tmp');

/** Where a blob's bytes live; throws on anything but a lowercase hex sha256 (no path tricks). */
export function blobPath(dataDir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return path.join(packagesDir(dataDir), 'blobs', sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

/** Hashes (md5, sha1, sha256, sha512) and counts what passes through, failing past maxSize. */
export class HashingCounter extends Transform {
  private readonly hashes = ['md5', 'sha1', 'sha256', 'sha512'].map((a) => crypto.createHash(a));
  size = 0;
  constructor(private readonly maxSize = -1, private readonly tooLarge: () => Error = () => new PayloadTooLargeError()) { super(); }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.size += chunk.length;
    if (this.maxSize >= 0 && this.size > this.maxSize) return done(this.tooLarge());
    for (const h of this.hashes) h.update(chunk);
    done(null, chunk);
  }
  digests(): BlobHashes {
    const [md5, sha1, sha256, sha512] = this.hashes.map((h) => h.digest('hex')) as [string, string, string, string];
    return { md5, sha1, sha256, sha512 };
  }
}

const tempName = (dataDir: string) => path.join(tempDir(dataDir), `${Date.now()}-${crypto.randomUUID()}`);

/** fsyncs a file so a crash after the rename cannot leave an empty or torn blob. */
function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}

/** Moves a complete temp file to the blob's place, or drops it when that blob already exists. */
export function commitTempFile(dataDir: string, temp: string, sha256: string): boolean {
  const dest = blobPath(dataDir, sha256);
  if (fs.existsSync(dest)) {
    fs.rmSync(temp, { force: true });
    // Fresh again: cleanup_packages leaves blobs whose file changed within older_than alone.
    const now = new Date();
    fs.utimesSync(dest, now, now);
    return false;
  }
  fsyncFile(temp);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  moveFile(temp, dest);
  return true;
}

/**
 * Streams `input` into the store. Errors (a client abort, maxSize) remove the temp file and
 * reject; the blob's file is in place once this resolves. It has no database row yet: the
 * package service adds it (createPackageAndAddFile), or cleanup_packages never sees it: a file
 * without a row is removed by removeBlobFile when the caller's transaction fails.
 */
export async function storeBlob(dataDir: string, input: Readable, opts: StoreOptions = {}): Promise<StoredBlob> {
  fs.mkdirSync(tempDir(dataDir), { recursive: true });
  const temp = tempName(dataDir);
  const counter = new HashingCounter(opts.maxSize ?? -1, opts.tooLarge);
  try {
    // Opened here, not by the stream: a stream destroyed while still opening (a first chunk
    // already too large) would create the file after the removal below.
    await pipeline(input, counter, fs.createWriteStream(temp, { fd: fs.openSync(temp, 'w') }));
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  const hashes = counter.digests();
  const created = commitTempFile(dataDir, temp, hashes.sha256);
  return { hashes, size: counter.size, created };
}

/** A read stream of a blob, whole or the inclusive byte range. */
export function openBlob(dataDir: string, sha256: string, range?: { start: number; end: number }): fs.ReadStream {
  return fs.createReadStream(blobPath(dataDir, sha256), range ? { start: range.start, end: range.end } : {});
}

export const blobExists = (dataDir: string, sha256: string) => fs.existsSync(blobPath(dataDir, sha256));

/** When the blob's file was last stored (written or deduplicated), unix ms; 0 when missing. */
export function blobTouchedAt(dataDir: string, sha256: string): number {
  try { return fs.statSync(blobPath(dataDir, sha256)).mtimeMs; } catch { return 0; }
}

/** Removes a blob's file (missing is fine); the caller has checked no row references it. */
export function removeBlobFile(dataDir: string, sha256: string): void {
  fs.rmSync(blobPath(dataDir, sha256), { force: true });
}

/** Temp files older than `olderThanMs` (uploads cut short by a crash), for cleanup_packages. */
export function removeStaleTempFiles(dataDir: string, olderThanMs: number): number {
  const dir = tempDir(dataDir);
  if (!fs.existsSync(dir)) return 0;
  let removed = 0;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (Date.now() - fs.statSync(file).mtimeMs > olderThanMs) { fs.rmSync(file, { force: true }); removed++; }
  }
  return removed;
}
