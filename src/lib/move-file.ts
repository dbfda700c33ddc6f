import fs from 'node:fs';
import path from 'node:path';

/**
 * Moves a finished temp file into place. A rename where it can; across file systems (an operator
 * who put <data>/tmp on a tmpfs) a rename fails with EXDEV, so the bytes are copied beside the
 * target, flushed, renamed there (readers never see half a file) and the source removed.
 */
export function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
  }
  const beside = path.join(path.dirname(to), `.${path.basename(to)}.${process.pid}.moving`);
  try {
    fs.copyFileSync(from, beside);
    const fd = fs.openSync(beside, 'r');
    try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
    fs.renameSync(beside, to);
  } catch (err) {
    fs.rmSync(beside, { force: true });
    throw err;
  }
  fs.rmSync(from, { force: true });
}
