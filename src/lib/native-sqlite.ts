import fs from 'node:fs';
import path from 'node:path';
import { inExecutable, readPayloadFile } from './sea-payload';

const ADDON = 'better_sqlite3.node';

/**
 * Inside the single executable the better-sqlite3 addon ships packed in it: write it out once
 * (named by its hash, so upgrades never load a stale copy) and dlopen it. Outside, return
 * undefined and let better-sqlite3 find its own build.
 */
export function loadSqliteAddon(cacheDir: string): object | undefined {
  if (!inExecutable()) return undefined;
  // Hashed at build time: hashing here would read the 2 MB addon (resident) on every start.
  const hash = readPayloadFile(`${ADDON}.sha256`)!.toString('utf8').trim().slice(0, 16);
  const file = path.join(cacheDir, `better_sqlite3-${hash}.node`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    // Copied out with read(), not through the mapped pages, which would then stay resident.
    fs.writeFileSync(tmp, readPayloadFile(ADDON)!, { mode: 0o755 });
    fs.renameSync(tmp, file);
  }
  const mod = { exports: {} as object };
  process.dlopen(mod, file);
  return mod.exports;
}
