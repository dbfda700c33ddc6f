// Inside the single executable every bundled file (the SQLite addon, the swagger UI, option
// templates) sits in ONE SEA asset that build.mjs packs: [u32 index length][index JSON][files].
// Node reads each asset's header at start, and the kernel maps about 512 KB of the executable
// around every page it touches: 70 separate assets cost ~1.5 MB of resident memory, one costs
// a window. Files are views into the executable's pages, read only when asked for.

export const PAYLOAD_ASSET = 'payload.bin';

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
