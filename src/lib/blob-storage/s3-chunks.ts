import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand,
} from './aws-sdk';
import type { S3BlobStorage } from './s3';
import { spool } from './spool';
import type { ChunkedUploads, PutOptions } from './storage';

// Chunked uploads in a bucket, so consecutive chunks may reach different nodes: the chunks
// become the parts of one S3 multipart upload of the session's key. S3 refuses parts under
// 5 MiB except the last, and clients send chunks of any size, so bytes short of a part wait in
// a pending object (<key>.pending, under 5 MiB): the next chunk is appended to them (they are
// read back, which is cheap at that size) and the sum goes up as a part once it is large enough.
// UploadPartCopy could join the pending object server-side, but S3-compatible servers do not all
// have it (s3rver does not), and the pending bytes are small. The state (upload id, parts,
// pending size) is JSON the caller keeps in the database; the sha256 is not carried across
// (a hash's state cannot be saved): the caller hashes the completed object by reading it.

export const MIN_PART = 5 * 1024 * 1024;
/** The largest part sent at once (S3 allows 5 GiB): a huge chunk goes up as several. */
const MAX_PART = 1024 * 1024 * 1024;

type Part = { n: number; etag: string };
/** done: complete() ran (the object is at the key; a digest check may have failed since). */
type State = { uploadId: string | null; parts: Part[]; pending: number; done?: boolean };

const parse = (s: string): State => (s ? JSON.parse(s) as State : { uploadId: null, parts: [], pending: 0 });

/** Sizes to cut `size` bytes into: parts of at most MAX_PART, none but the last under MIN_PART. */
function partSizes(size: number): number[] {
  const out: number[] = [];
  for (let left = size; left > 0; left -= out[out.length - 1]!) out.push(Math.min(left, MAX_PART));
  if (out.length > 1 && out[out.length - 1]! < MIN_PART) out[out.length - 2]! += out.pop()!;
  return out;
}

export class S3Chunks implements ChunkedUploads {
  constructor(private readonly s3: S3BlobStorage) {}

  private pendingKey = (key: string) => `${key}.pending`;
  private get bucket() { return this.s3.settings.bucket; }

  async begin(_key: string): Promise<string> {
    return JSON.stringify({ uploadId: null, parts: [], pending: 0 } satisfies State);
  }

  async append(key: string, stateText: string, offset: number, input: Readable, opts: PutOptions = {}): Promise<{ state: string; size: number }> {
    let state = parse(stateText);
    // The bytes the chunk goes after, when they are not parts yet: the pending object or, once
    // complete() ran (a digest that did not match, then more chunks), the whole object, which
    // starts over as a new multipart upload (rare: a client retrying after a failed finish).
    const prefix = state.done ? { key, size: offset } : { key: this.pendingKey(key), size: state.pending };
    if (state.done) state = { uploadId: null, parts: [], pending: offset };
    const chunk = await spool(this.s3.tempDir, input, opts);
    const joined = prefix.size > 0 ? `${chunk.file}.joined` : chunk.file;
    try {
      // The prefix, then the chunk: one local file to cut parts from.
      if (prefix.size > 0) {
        await this.s3.download(prefix.key, joined);
        await pipeline(fs.createReadStream(chunk.file), fs.createWriteStream(joined, { flags: 'a' }));
      }
      const total = prefix.size + chunk.size;
      if (total < MIN_PART) {
        await this.s3.client.send(new PutObjectCommand({
          Bucket: this.bucket, Key: this.s3.objectKey(this.pendingKey(key)), Body: fs.readFileSync(joined), // under 5 MiB
        }));
        return { state: JSON.stringify({ ...state, pending: total }), size: chunk.size };
      }
      const next = { ...state, parts: [...state.parts], pending: 0 };
      next.uploadId ??= await this.create(key);
      await this.uploadParts(key, next, joined, partSizes(total));
      await this.s3.remove(this.pendingKey(key));
      return { state: JSON.stringify(next), size: chunk.size };
    } finally {
      fs.rmSync(chunk.file, { force: true });
      fs.rmSync(joined, { force: true });
    }
  }

  private async create(key: string): Promise<string> {
    const out = await this.s3.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.s3.objectKey(key) }));
    if (!out.UploadId) throw new Error(`no upload id for ${key}`);
    return out.UploadId;
  }

  private async uploadParts(key: string, state: State, file: string, sizes: number[]): Promise<void> {
    let start = 0;
    for (const size of sizes) {
      const n = state.parts.length + 1;
      const out = await this.s3.client.send(new UploadPartCommand({
        Bucket: this.bucket, Key: this.s3.objectKey(key), UploadId: state.uploadId!, PartNumber: n,
        Body: fs.createReadStream(file, { start, end: start + size - 1 }), ContentLength: size,
      }));
      state.parts.push({ n, etag: out.ETag ?? '' });
      start += size;
    }
  }

  async complete(key: string, stateText: string): Promise<string> {
    const state = parse(stateText);
    if (state.done) return stateText;
    if (!state.uploadId) {
      // Never a whole part: the pending bytes (or none) are the object.
      if (state.pending > 0) await this.s3.copy(this.pendingKey(key), key);
      else await this.s3.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.s3.objectKey(key), Body: Buffer.alloc(0) }));
    } else {
      const parts = [...state.parts];
      if (state.pending > 0) {
        // The last part may be small: the pending bytes go up as it.
        const tail = `${this.s3.tempDir}/${Date.now()}-${Math.random().toString(36).slice(2)}.tail`;
        try {
          await this.s3.download(this.pendingKey(key), tail);
          const done = { ...state, parts };
          await this.uploadParts(key, done, tail, [state.pending]);
        } finally {
          fs.rmSync(tail, { force: true });
        }
      }
      await this.s3.client.send(new CompleteMultipartUploadCommand({
        Bucket: this.bucket, Key: this.s3.objectKey(key), UploadId: state.uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
      }));
    }
    await this.s3.remove(this.pendingKey(key));
    // Complete: only the object is left to remove.
    return JSON.stringify({ uploadId: null, parts: [], pending: 0, done: true } satisfies State);
  }

  async abort(key: string, stateText: string): Promise<void> {
    const state = parse(stateText);
    if (state.uploadId) {
      try {
        await this.s3.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.s3.objectKey(key), UploadId: state.uploadId }));
      } catch (err) {
        // Gone already (aborted or completed by another node), or a server without the call
        // (s3rver): a bucket lifecycle rule removes incomplete uploads there (README).
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status !== 404 && status !== 405 && status !== 501) throw err;
      }
    }
    await this.s3.remove(this.pendingKey(key));
    await this.s3.remove(key);
  }
}
