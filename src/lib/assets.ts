import fs from 'node:fs';
import path from 'node:path';
import { inExecutable, payloadFile } from './sea-payload';

/** Bundled files: packed in the executable (sea-payload.ts), node_modules or assets/ when run from source. */
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
  const data = inExecutable() ? payloadFile(name) : fs.readFileSync(path.join(__dirname, '..', '..', source));
  if (!data) return undefined;
  cache.set(name, data);
  return data;
}
