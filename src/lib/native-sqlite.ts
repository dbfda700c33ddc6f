import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ASSET = 'better_sqlite3.node';

/**
 * Inside the single executable the better-sqlite3 addon ships as an asset: write it out once
 * (named by its hash, so upgrades never load a stale copy) and dlopen it. Outside, return
 * undefined and let better-sqlite3 find its own build.
 */
export function loadSqliteAddon(cacheDir: string): object | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sea = require('node:sea') as typeof import('node:sea');
  if (!sea.isSea()) return undefined;
  const bytes = Buffer.from(sea.getRawAsset(ASSET) as ArrayBuffer);
  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const file = path.join(cacheDir, `better_sqlite3-${hash}.node`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bytes, { mode: 0o755 });
    fs.renameSync(tmp, file);
  }
  const mod = { exports: {} as object };
  process.dlopen(mod, file);
  return mod.exports;
}
