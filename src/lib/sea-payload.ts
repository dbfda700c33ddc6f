// Inside the single executable every bundled file (the SQLite addon, the swagger UI, option
// templates) sits in ONE SEA asset that build.mjs packs: [u32 index length][index JSON][files].
// Node reads each asset's header at start, and the kernel maps about 512 KB of the executable
// around every page it touches: 70 separate assets cost ~1.5 MB of resident memory, one costs
// a window. Files are views into the executable's pages, read only when asked for.

import fs from 'node:fs';

const PAYLOAD_ASSET = 'payload.bin';

type Index = Record<string, [offset: number, length: number]>;

let payload: { bytes: Buffer; index: Index } | null | undefined;

function load(): { bytes: Buffer; index: Index } | null {
  if (payload !== undefined) return payload;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sea = require('node:sea') as typeof import('node:sea');
  if (!sea.isSea()) return (payload = null);
  const bytes = Buffer.from(sea.getRawAsset(PAYLOAD_ASSET) as ArrayBuffer);
  const length = bytes.readUInt32LE(0);
  const index = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Index;
  return (payload = { bytes, index });
}

/** True inside the single executable. */
export const inExecutable = (): boolean => load() !== null;

/** A packed file (a view, not a copy); undefined outside the executable or when not packed. */
export function payloadFile(name: string): Buffer | undefined {
  const p = load();
  const at = p?.index[name];
  return p && at ? p.bytes.subarray(at[0], at[0] + at[1]) : undefined;
}

/**
 * Where a packed file lies in the executable file itself, found by searching its tail for the
 * payload's first bytes: copying from there with read() leaves the mapped pages untouched (the
 * 2 MB addon written out at first start would otherwise stay resident). Undefined if not found.
 */
export function payloadFileOnDisk(name: string): { path: string; start: number; length: number } | undefined {
  const p = load();
  const at = p?.index[name];
  if (!p || !at) return undefined;
  const needle = p.bytes.subarray(0, Math.min(p.bytes.length, 256));
  const base = findInTail(process.execPath, needle, p.bytes.length + (16 << 20));
  return base === undefined ? undefined : { path: process.execPath, start: base + at[0], length: at[1] };
}

function findInTail(file: string, needle: Buffer, span: number): number | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
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
  } finally {
    fs.closeSync(fd);
  }
}
