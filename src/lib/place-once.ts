import crypto from 'node:crypto';
import fs from 'node:fs';

// Files made once and kept (the instance key, host keys, the default signing key) on a data
// directory that several processes may start on at the same moment: each writer fills a private
// temp file, then link() puts it in place only if the name is still free, so nobody reads a
// half-written file and everybody ends up with the first writer's.

/** A temp name beside `file` that no other process or call uses. */
export const privateTmpName = (file: string): string => `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;

/** Links `tmp` to `file` unless `file` exists; removes `tmp` either way. True when this call placed it. */
export function placeOnce(tmp: string, file: string): boolean {
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Writes `contents` to `file` unless another writer got there first. True when this call wrote it. */
export function writeOnce(file: string, contents: string, mode: number): boolean {
  const tmp = privateTmpName(file);
  try {
    fs.writeFileSync(tmp, contents, { mode });
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return placeOnce(tmp, file);
}
