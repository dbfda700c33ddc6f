import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { inExecutable, payloadFile } from './sea-payload';

// The web pages' own stylesheet and script: read once (packed in the executable as `web/<name>`,
// else from assets/web), named by a hash of their content so browsers keep them for a year
// (`immutable`), and compressed once, brotli and gzip, at their first request.

export const WEB_ASSET_NAMES = ['hearth.css', 'hearth.js'] as const;
export type WebAssetName = (typeof WEB_ASSET_NAMES)[number];

export type WebAsset = { name: WebAssetName; url: string; type: string; raw: Buffer; br: Buffer; gzip: Buffer };
type Loaded = { raw: Buffer; hash: string; file: string };

const loaded = new Map<WebAssetName, Loaded>();
const compressed = new Map<WebAssetName, WebAsset>();

function load(name: WebAssetName): Loaded {
  const hit = loaded.get(name);
  if (hit) return hit;
  const raw = inExecutable() ? payloadFile(`web/${name}`) : fs.readFileSync(path.join(__dirname, '..', '..', 'assets', 'web', name));
  if (!raw) throw new Error(`web asset ${name} is not packed`);
  const hash = crypto.createHash('sha256').update(raw).digest('hex').slice(0, 12);
  const dot = name.lastIndexOf('.');
  const entry = { raw, hash, file: `${name.slice(0, dot)}.${hash}${name.slice(dot)}` };
  loaded.set(name, entry);
  return entry;
}

/** The hashed file name (`hearth.<hash>.css`) pages link to under /assets/. */
export const webAssetFile = (name: WebAssetName): string => load(name).file;

/** The asset a hashed file name names, compressed; undefined for any other name or an old hash. */
export function webAssetByFile(file: string): WebAsset | undefined {
  const name = WEB_ASSET_NAMES.find((n) => load(n).file === file);
  if (!name) return undefined;
  let asset = compressed.get(name);
  if (!asset) {
    const { raw } = load(name);
    asset = {
      name, url: file, raw,
      type: name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      br: zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
      gzip: zlib.gzipSync(raw, { level: 9 }),
    };
    compressed.set(name, asset);
  }
  return asset;
}
