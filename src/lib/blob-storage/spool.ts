import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HashingCounter } from './hashing';
import type { BlobHashes, PutOptions } from './storage';

export type Spooled = { file: string; size: number; hashes: BlobHashes };

const tempName = (dir: string) => path.join(dir, `${Date.now()}-${crypto.randomUUID()}`);

/**
 * Streams `input` into a new file in `dir` while hashing it. Errors (a client abort, maxSize)
 * remove the file and reject. Both stores spool first: the key of a content-addressed object is
 * known only once the last byte is hashed.
 */
export async function spool(dir: string, input: Readable, opts: PutOptions = {}): Promise<Spooled> {
  fs.mkdirSync(dir, { recursive: true });
  const file = tempName(dir);
  const counter = new HashingCounter(opts.maxSize ?? -1, opts.tooLarge);
  try {
    // Opened here, not by the stream: a stream destroyed while still opening (a first chunk
    // already too large) would create the file after the removal below.
    await pipeline(input, counter, fs.createWriteStream(file, { fd: fs.openSync(file, 'w') }));
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw err;
  }
  return { file, size: counter.size, hashes: counter.digests() };
}

/** fsyncs a file so a crash after a rename cannot leave an empty or torn object. */
export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}

/** Temp files in `dir` older than `olderThanMs` (uploads cut short by a crash). */
export function removeStaleFiles(dir: string, olderThanMs: number): number {
  if (!fs.existsSync(dir)) return 0;
  let removed = 0;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > olderThanMs) { fs.rmSync(file, { force: true }); removed++; }
    } catch { /* removed meanwhile */ }
  }
  return removed;
}
