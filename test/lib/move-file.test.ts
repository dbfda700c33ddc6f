import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moveFile } from '../../src/lib/move-file';

// Uploads wait in <data>/tmp and move into the store; with <data>/tmp on another file system
// (a tmpfs) a rename failed with EXDEV and the upload with a 500. /dev/shm is such another file
// system here (a tmpfs beside the disk); where it is not, the cross-device case is skipped.

const dirs: string[] = [];
const tmp = (root: string) => { const d = fs.mkdtempSync(path.join(root, 'hearth-move-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

describe('moveFile', () => {
  it('renames within one file system', () => {
    const d = tmp(os.tmpdir());
    fs.writeFileSync(path.join(d, 'a'), 'one');
    moveFile(path.join(d, 'a'), path.join(d, 'b'));
    expect(fs.readdirSync(d)).toEqual(['b']);
    expect(fs.readFileSync(path.join(d, 'b'), 'utf8')).toBe('one');
  });

  it('copies across file systems (EXDEV), leaving neither the source nor a half file', (ctx) => {
    const shm = '/dev/shm';
    if (!fs.existsSync(shm) || fs.statSync(shm).dev === fs.statSync(os.tmpdir()).dev) ctx.skip();
    const from = tmp(shm);
    const to = tmp(os.tmpdir());
    const bytes = Buffer.alloc(3 * 1024 * 1024, 42);
    fs.writeFileSync(path.join(from, 'upload'), bytes);
    expect(() => fs.linkSync(path.join(from, 'upload'), path.join(to, 'probe'))).toThrow(/EXDEV/);
    moveFile(path.join(from, 'upload'), path.join(to, 'stored'));
    expect(fs.readdirSync(from)).toEqual([]);
    expect(fs.readdirSync(to)).toEqual(['stored']);
    expect(fs.readFileSync(path.join(to, 'stored')).equals(bytes)).toBe(true);
  });
});
