import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobsBytes } from '../../src/git/blob';
import { ownedCopy } from '../../src/lib/owned-copy';
import { git, tempDir } from '../helpers/git';

describe('the small-blob cache', () => {
  it('keeps only each blob\'s own bytes (regression: every kept blob held a whole pool slab, 64 KB on Node 24)', async () => {
    const dir = tempDir();
    await git(dir, 'init', '-q', '--bare');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const file = path.join(dir, `in-${i}`);
      fs.writeFileSync(file, `blob ${i}\n`);
      ids.push((await git(dir, 'hash-object', '-w', file)).trim());
    }
    const first = await blobsBytes(dir, ids);
    const again = await blobsBytes(dir, ids); // from the cache
    for (const [i, id] of ids.entries()) {
      expect(again.get(id)!.toString()).toBe(`blob ${i}\n`);
      for (const b of [first.get(id)!, again.get(id)!]) expect(b.buffer.byteLength).toBe(b.length);
    }
  });

  it('ownedCopy copies into memory of its own', () => {
    const slab = Buffer.from('a shared buffer of some length');
    const copy = ownedCopy(slab.subarray(2, 8));
    slab[2] = 0x5a;
    expect(copy.toString()).toBe('shared');
    expect(copy.buffer.byteLength).toBe(6);
  });
});
