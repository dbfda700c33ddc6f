// Inside the single executable every bundled file (the SQLite addon, the swagger UI, option
// templates) sits in ONE SEA asset that build.mjs packs: [u32 index length][index JSON][files].
// Node reads each asset's header at start, and the kernel maps about 512 KB of the executable
// around every page it touches: 70 separate assets cost ~1.5 MB of resident memory, one costs
// a window. Files are views into the executable's pages, read only when asked for.
// A start only copies files out (readPayloadFile: the bundle, its code cache, the addon's hash),
// from the executable file, by the trailer build.mjs appends: the asset itself is not touched.
// V8 counts the asset's 13 MB ArrayBuffer as external memory, once per module instance that
// asks for it (the bootstrap and the application's bundle each hold one): at 32 MB it started
// a full mark-compact before the first answer (~80 M instructions of concurrent marking).

import fs from 'node:fs';

const PAYLOAD_ASSET = 'payload.bin';

type Index = Record<string, [offset: number, length: number]>;

let payload: { bytes: Buffer; index: Index } | null | undefined;

function load(): { bytes: Buffer; index: Index } | null {
  if (payload !== undefined) return payload;
  if (!isSea()) return (payload = null);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sea = require('node:sea') as typeof import('node:sea');
  const bytes = Buffer.from(sea.getRawAsset(PAYLOAD_ASSET) as ArrayBuffer);
  const length = bytes.readUInt32LE(0);
  const index = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Index;
  return (payload = { bytes, index });
}

let sea: boolean | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const isSea = (): boolean => (sea ??= (require('node:sea') as typeof import('node:sea')).isSea());

/** True inside the single executable. */
export const inExecutable = (): boolean => isSea();

/** A packed file (a view, not a copy); undefined outside the executable or when not packed. */
export function payloadFile(name: string): Buffer | undefined {
  const p = load();
  const at = p?.index[name];
  return p && at ? p.bytes.subarray(at[0], at[0] + at[1]) : undefined;
}

// build.mjs appends this trailer to the executable: the magic, then the payload's file offset
// (u64 LE). Bytes after the last segment are never mapped or read by the loader.
const TRAILER_MAGIC = Buffer.from('HEARTH-PAYLOAD\0\0');
const TRAILER_LENGTH = TRAILER_MAGIC.length + 8;

type OnDisk = { base: number; index: Index };
let onDisk: OnDisk | null | undefined;

/**
 * Where the payload starts in the executable file, and its index: both read from the file, by
 * the trailer build.mjs appends; else (no trailer) the index from the mapped asset and its place
 * found by searching the file's tail for the asset's first bytes.
 */
function payloadOnDisk(): OnDisk | null {
  if (onDisk !== undefined) return onDisk;
  if (!isSea()) return (onDisk = null);
  const fd = fs.openSync(process.execPath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const at = trailerOffset(fd, size);
    const index = at === undefined ? undefined : indexAt(fd, at, size);
    if (at !== undefined && index) return (onDisk = { base: at, index });
    const p = load()!;
    const needle = p.bytes.subarray(0, Math.min(p.bytes.length, 256));
    const found = findInTail(fd, size, needle, p.bytes.length + (16 << 20));
    return (onDisk = found === undefined ? null : { base: found, index: p.index });
  } finally {
    fs.closeSync(fd);
  }
}

function trailerOffset(fd: number, size: number): number | undefined {
  const trailer = Buffer.alloc(TRAILER_LENGTH);
  fs.readSync(fd, trailer, 0, TRAILER_LENGTH, size - TRAILER_LENGTH);
  if (!trailer.subarray(0, TRAILER_MAGIC.length).equals(TRAILER_MAGIC)) return undefined;
  const at = Number(trailer.readBigUInt64LE(TRAILER_MAGIC.length));
  return at > 0 && at < size ? at : undefined;
}

/** The payload's index at `at` in the file, if one is there whose files all lie inside the file. */
function indexAt(fd: number, at: number, size: number): Index | undefined {
  const head = Buffer.alloc(4);
  fs.readSync(fd, head, 0, 4, at);
  const length = head.readUInt32LE(0);
  if (length === 0 || at + 4 + length > size) return undefined;
  const json = Buffer.alloc(length);
  fs.readSync(fd, json, 0, length, at + 4);
  try {
    const index = JSON.parse(json.toString('utf8')) as Index;
    const inside = Object.values(index).every(([o, n]) => Number.isInteger(o) && Number.isInteger(n) && at + o + n <= size);
    return inside ? index : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a packed file lies in the executable file itself: copying from there with read() leaves
 * the mapped pages untouched (the 2 MB addon written out at first start, the application bundle
 * and its code cache would otherwise stay resident). Undefined if not found.
 */
function payloadFileOnDisk(name: string): { path: string; start: number; length: number } | undefined {
  const p = payloadOnDisk();
  const at = p?.index[name];
  return p && at ? { path: process.execPath, start: p.base + at[0], length: at[1] } : undefined;
}

/** A packed file copied out with read() (see payloadFileOnDisk), else from the mapped view. */
export function readPayloadFile(name: string): Buffer | undefined {
  const onDisk = payloadFileOnDisk(name);
  if (!onDisk) {
    const view = payloadFile(name);
    return view && Buffer.from(view);
  }
  const out = Buffer.allocUnsafe(onDisk.length);
  const fd = fs.openSync(onDisk.path, 'r');
  try {
    for (let done = 0; done < out.length;) {
      const n = fs.readSync(fd, out, done, out.length - done, onDisk.start + done);
      if (n <= 0) throw new Error(`executable truncated while reading ${name}`);
      done += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return out;
}

function findInTail(fd: number, size: number, needle: Buffer, span: number): number | undefined {
  const chunk = Buffer.alloc(1 << 20);
  // Backwards in overlapping chunks: the payload sits near the end of the executable.
  for (let end = size; end > Math.max(0, size - span); end -= chunk.length - needle.length) {
    const start = Math.max(0, end - chunk.length);
    const n = fs.readSync(fd, chunk, 0, end - start, start);
    const hit = chunk.subarray(0, n).lastIndexOf(needle);
    if (hit >= 0) return start + hit;
    if (start === 0) break;
  }
  return undefined;
}
