import fs from 'node:fs';
import path from 'node:path';
import { inExecutable, payloadFile, payloadFileOnDisk } from './sea-payload';

const ADDON = 'better_sqlite3.node';

/**
 * Inside the single executable the better-sqlite3 addon ships packed in it: write it out once
 * (named by its hash, so upgrades never load a stale copy) and dlopen it. Outside, return
 * undefined and let better-sqlite3 find its own build.
 */
export function loadSqliteAddon(cacheDir: string): object | undefined {
  if (!inExecutable()) return undefined;
  // Hashed at build time: hashing here would read the 2 MB addon (resident) on every start.
  const hash = payloadFile(`${ADDON}.sha256`)!.toString('utf8').trim().slice(0, 16);
  const file = path.join(cacheDir, `better_sqlite3-${hash}.node`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeAddon(tmp);
    fs.renameSync(tmp, file);
  }
  const mod = { exports: {} as object };
  process.dlopen(mod, file);
  return mod.exports;
}

/** Copies the addon out of the executable file with read(), else from the mapped payload. */
function writeAddon(to: string): void {
  const onDisk = payloadFileOnDisk(ADDON);
  if (!onDisk) {
    fs.writeFileSync(to, payloadFile(ADDON)!, { mode: 0o755 });
    return;
  }
  const from = fs.openSync(onDisk.path, 'r');
  const out = fs.openSync(to, 'w', 0o755);
  try {
    const chunk = Buffer.alloc(1 << 20);
    for (let done = 0; done < onDisk.length;) {
      const n = fs.readSync(from, chunk, 0, Math.min(chunk.length, onDisk.length - done), onDisk.start + done);
      if (n <= 0) throw new Error('executable truncated while writing the SQLite addon');
      fs.writeSync(out, chunk, 0, n);
      done += n;
    }
  } finally {
    fs.closeSync(from);
    fs.closeSync(out);
  }
}
