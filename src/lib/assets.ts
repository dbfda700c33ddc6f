import fs from 'node:fs';
import path from 'node:path';

/** Bundled files: SEA assets inside the executable, node_modules or assets/ when run from source. */
export const ASSET_SOURCES: Record<string, string> = {
  'swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css',
  'swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
};

const cache = new Map<string, Buffer>();

export function readAsset(name: string): Buffer | undefined {
  const hit = cache.get(name);
  if (hit) return hit;
  const source = ASSET_SOURCES[name];
  if (!source) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sea = require('node:sea') as typeof import('node:sea');
  const data = sea.isSea()
    ? Buffer.from(sea.getRawAsset(name) as ArrayBuffer)
    : fs.readFileSync(path.join(__dirname, '..', '..', source));
  cache.set(name, data);
  return data;
}
