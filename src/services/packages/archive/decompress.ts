/* eslint-disable @typescript-eslint/no-require-imports */
import { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { BadRequestError } from '../../../lib/errors';

// Decompression of the small metadata members of uploaded packages (a .deb's control.tar, an
// arch package's .PKGINFO, a conda package's info/): gzip, xz, zstd and bzip2, capped so a
// crafted archive cannot expand without bound. The xz and zstd decoders load on first use.

export type Compression = 'none' | 'gz' | 'xz' | 'zst' | 'bz2';
/** Largest decompressed metadata accepted. */
export const MAX_METADATA_BYTES = 64 << 20;

/** The compression a file name's suffix names. */
export function compressionOf(name: string): Compression | null {
  if (/\.(gz|tgz)$/.test(name)) return 'gz';
  if (/\.xz$/.test(name)) return 'xz';
  if (/\.zst$/.test(name)) return 'zst';
  if (/\.bz2$/.test(name)) return 'bz2';
  if (/\.tar$/.test(name)) return 'none';
  return null;
}

/** The compression its first bytes show. */
export function sniffCompression(head: Buffer): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gz';
  if (head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'xz';
  if (head.readUInt32LE(0) === 0xfd2fb528) return 'zst';
  if (head.subarray(0, 3).toString('latin1') === 'BZh') return 'bz2';
  return 'none';
}

async function unxz(data: Buffer, max: number): Promise<Buffer> {
  const { XzReadableStream } = require('xz-decompress') as { XzReadableStream: new (s: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array> };
  const source = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(new Uint8Array(data)); c.close(); } });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of new XzReadableStream(source) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw new BadRequestError('archive member too large');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function unzstd(data: Buffer): Buffer {
  const native = (zlib as unknown as { zstdDecompressSync?: (b: Buffer, o?: object) => Buffer }).zstdDecompressSync;
  if (native) return native(data, { maxOutputLength: MAX_METADATA_BYTES });
  const { decompress } = require('fzstd') as typeof import('fzstd');
  return Buffer.from(decompress(new Uint8Array(data)));
}

function unbzip2(data: Buffer, max: number): Buffer {
  // seek-bzip decodes whole: a bounded input keeps its output bounded too (bzip2 expands at most ~45x per block).
  if (data.length > max / 4) throw new BadRequestError('archive member too large');
  const { decode } = require('seek-bzip') as { decode: (b: Buffer) => Buffer };
  return decode(data);
}

/** The decompressed bytes (BadRequestError when broken or larger than `max`). */
export async function decompress(data: Buffer, kind: Compression, max = MAX_METADATA_BYTES): Promise<Buffer> {
  try {
    let out: Buffer;
    switch (kind) {
      case 'none': out = data; break;
      case 'gz': out = zlib.gunzipSync(data, { maxOutputLength: max }); break;
      case 'xz': out = await unxz(data, max); break;
      case 'zst': out = unzstd(data); break;
      case 'bz2': out = unbzip2(data, max); break;
    }
    if (out.length > max) throw new BadRequestError('archive member too large');
    return out;
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(`broken ${kind} data: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** fzstd's streaming decoder as a Node stream (Node 20 has no zstd; Node 24's zlib does). */
function zstdStream(): Transform {
  const { Decompress } = require('fzstd') as typeof import('fzstd');
  let push: ((chunk: Buffer) => void) | null = null;
  const d = new Decompress((chunk) => push?.(Buffer.from(chunk)));
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      push = (c) => this.push(c);
      try { d.push(new Uint8Array(chunk)); done(); } catch (err) { done(err as Error); }
    },
    flush(done) {
      push = (c) => this.push(c);
      try { d.push(new Uint8Array(0), true); done(); } catch (err) { done(err as Error); }
    },
  });
}

/** A whole package decompressed as a stream (gzip, xz, zstd): for archives too big to hold. */
export function decompressStream(input: Readable, kind: Compression): Readable {
  switch (kind) {
    case 'none': return input;
    case 'gz': return input.pipe(zlib.createGunzip());
    case 'zst': {
      const native = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;
      return input.pipe(native ? native() : zstdStream());
    }
    case 'xz': {
      const { XzReadableStream } = require('xz-decompress') as { XzReadableStream: new (s: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array> };
      return Readable.fromWeb(new XzReadableStream(Readable.toWeb(input) as ReadableStream<Uint8Array>) as import('node:stream/web').ReadableStream);
    }
    case 'bz2': throw new BadRequestError('a bzip2 stream is not supported here');
  }
}
