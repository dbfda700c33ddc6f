import type { Readable } from 'node:stream';

// One interface for every stored file that is not a git repository (package files, LFS objects,
// and the areas that follow): local disk under the data directory, or an S3-compatible bucket
// shared by several nodes. Keys are relative paths with '/' separators ("packages/blobs/ab/cd/<sha256>"):
// on local disk the key is the file's path under the data directory, so existing data
// directories keep their layout; in a bucket it is the object's name after the configured prefix.

export type BlobHashes = { md5: string; sha1: string; sha256: string; sha512: string };
/** An inclusive byte range, as HTTP's Range header counts. */
export type ByteRange = { start: number; end: number };
export type BlobStat = { size: number; /** When the bytes were last stored or marked fresh, unix ms. */ modifiedMs: number };
export type BlobEntry = BlobStat & { key: string };

export type PutOptions = {
  /** Bytes allowed (-1 or undefined: no limit); past it the upload is cut and `tooLarge()` thrown. */
  maxSize?: number;
  /** The error thrown past maxSize (default PayloadTooLargeError, 413). */
  tooLarge?: () => Error;
};

export type PutResult = {
  key: string; size: number; hashes: BlobHashes;
  /** false: the key was content-addressed and already held these bytes (now marked fresh). */
  created: boolean;
};

/**
 * Where put stores the bytes: a fixed key (replaced whole if present), or a key computed from
 * the hashes (content-addressed: an object already there is kept and marked fresh instead).
 */
export type KeyOf = string | ((hashes: BlobHashes) => string);

export type SignedUrlOptions = { expiresSec: number; filename?: string; contentType?: string };

/**
 * An upload that arrives in chunks, possibly each on another node: the store keeps the bytes,
 * the caller keeps `state` (an opaque string) in the database between calls, with the offset.
 * The object appears under `key` once complete() resolves; abort() drops whatever was kept.
 */
export interface ChunkedUploads {
  begin(key: string): Promise<string>;
  /** Appends `input` at `offset` (the bytes so far): the chunk's size and the new state. A failed chunk leaves the old state valid. */
  append(key: string, state: string, offset: number, input: Readable, opts?: PutOptions): Promise<{ state: string; size: number }>;
  /** Joins the chunks into the object `key`; the state it returns stays valid for abort(). */
  complete(key: string, state: string): Promise<string>;
  abort(key: string, state: string): Promise<void>;
}

export interface BlobStorage {
  readonly kind: 'local' | 's3';
  /** Streams `input` in, hashing (md5, sha1, sha256, sha512) and counting as it goes; nothing is held whole in memory. */
  put(key: KeyOf, input: Readable, opts?: PutOptions): Promise<PutResult>;
  /**
   * Stores a complete local file already hashed (a finished chunked upload), taking it over: on
   * local disk it is renamed into place, for a bucket uploaded and removed. The file is gone afterwards either way.
   */
  adopt(key: KeyOf, file: string, hashed: { size: number; hashes: BlobHashes }): Promise<PutResult>;
  /** Stores a complete local file under a fixed key (replacing what is there), taking it over as adopt does. */
  putFile(key: string, file: string): Promise<void>;
  /** The bytes, whole or the inclusive range; NotFoundError-free: a missing key rejects with code 'ENOENT'. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<BlobStat | null>;
  /** Removes the object; a missing key is fine. */
  remove(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`. */
  list(prefix: string): AsyncIterable<BlobEntry>;
  /** A URL a client may fetch the bytes from directly for a while, or null where the store has none (local disk). */
  signedUrl(key: string, opts: SignedUrlOptions): Promise<string | null>;
  /**
   * Runs `fn` with a local file holding the object's bytes, for parsers that need a file (zip,
   * tar, ar): on local disk the file itself, in a bucket a temporary download removed afterwards.
   */
  withFile<T>(key: string, fn: (file: string) => Promise<T> | T): Promise<T>;
  /**
   * Moves a stored object to `key` as adopt moves a local file (content-addressed: an object
   * already there is kept and marked fresh); `from` is gone afterwards.
   */
  adoptObject(key: KeyOf, from: string, hashed: { size: number; hashes: BlobHashes }): Promise<PutResult>;
  /** Chunked uploads whose consecutive chunks may reach different nodes (chunked.ts). */
  readonly chunks: ChunkedUploads;
  /** Releases connections (the S3 client's sockets). */
  close(): Promise<void>;
}

/** A missing object, as open() reports it: the same code as fs's, so callers test one thing. */
export function notFound(key: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no stored object ${key}`);
  err.code = 'ENOENT';
  return err;
}

/** Keys are relative, '/'-separated, without '.', '..' or empty segments: no way out of the store's root. */
export function checkKey(key: string): string {
  if (!key || key.startsWith('/') || key.split('/').some((s) => s === '' || s === '.' || s === '..') || key.includes('\\') || key.includes('\0')) {
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  }
  return key;
}
