import fs from 'node:fs';
import { BadRequestError } from '../../../lib/errors';

// The RPM file format (lead, signature header, main header, payload), read from the stored file:
// only the headers, whose size is bounded; the payload is never read.

const HEADER_MAGIC = Buffer.from([0x8e, 0xad, 0xe8, 0x01]);
const MAX_HEADER = 64 << 20;

export type RpmTags = Map<number, string | string[] | number[]>;
export type RpmHeaders = { signature: RpmTags; main: RpmTags; headerStart: number; headerEnd: number };

function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  if (fs.readSync(fd, buf, 0, len, pos) !== len) throw new BadRequestError('truncated rpm file');
  return buf;
}

function strings(store: Buffer, offset: number, count: number): string[] {
  const out: string[] = [];
  let pos = offset;
  for (let i = 0; i < count; i++) {
    const end = store.indexOf(0, pos);
    if (end < 0) throw new BadRequestError('broken rpm header');
    out.push(store.toString('utf8', pos, end));
    pos = end + 1;
  }
  return out;
}

function numbers(store: Buffer, type: number, offset: number, count: number): number[] {
  const size = type === 2 ? 1 : type === 3 ? 2 : type === 4 ? 4 : 8;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const p = offset + i * size;
    out.push(size === 1 ? store.readUInt8(p) : size === 2 ? store.readUInt16BE(p) : size === 4 ? store.readUInt32BE(p) : Number(store.readBigUInt64BE(p)));
  }
  return out;
}

/** One header structure at `pos`: its tags and where it ends. */
function readHeader(fd: number, pos: number): { tags: RpmTags; end: number } {
  const intro = readAt(fd, pos, 16);
  if (!intro.subarray(0, 4).equals(HEADER_MAGIC)) throw new BadRequestError('not an rpm header');
  const nindex = intro.readUInt32BE(8);
  const hsize = intro.readUInt32BE(12);
  if (nindex * 16 + hsize > MAX_HEADER) throw new BadRequestError('rpm header too large');
  const index = readAt(fd, pos + 16, nindex * 16);
  const store = readAt(fd, pos + 16 + nindex * 16, hsize);
  const tags: RpmTags = new Map();
  for (let i = 0; i < nindex; i++) {
    const tag = index.readUInt32BE(i * 16);
    const type = index.readUInt32BE(i * 16 + 4);
    const offset = index.readUInt32BE(i * 16 + 8);
    const count = index.readUInt32BE(i * 16 + 12);
    if (offset > hsize) throw new BadRequestError('broken rpm header');
    if (type === 6) tags.set(tag, strings(store, offset, 1)[0]!);
    else if (type === 8 || type === 9) tags.set(tag, strings(store, offset, count));
    else if (type >= 2 && type <= 5) tags.set(tag, numbers(store, type, offset, count));
  }
  return { tags, end: pos + 16 + nindex * 16 + hsize };
}

/** The signature and main headers of the rpm at `file`, with the main header's byte range. */
export function readRpmHeaders(file: string): RpmHeaders {
  const fd = fs.openSync(file, 'r');
  try {
    const lead = readAt(fd, 0, 96);
    if (lead.readUInt32BE(0) !== 0xedabeedb) throw new BadRequestError('not an rpm file');
    const sig = readHeader(fd, 96);
    const headerStart = sig.end + ((8 - (sig.end % 8)) % 8);
    const main = readHeader(fd, headerStart);
    return { signature: sig.tags, main: main.tags, headerStart, headerEnd: main.end };
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(`broken rpm file: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    fs.closeSync(fd);
  }
}
