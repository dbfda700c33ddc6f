import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/lib/errors';
import { readTarMembers, tarEntries, writeTar } from '../../src/services/packages/archive/tar';

// The one tar reader every registry's metadata parser uses: what it keeps, and what it refuses
// with a 400 (a broken, oversized or bomb-like upload), never a 500 or a hang.

const files = [
  { name: 'pkg/meta.json', data: Buffer.from('{"name":"x"}') },
  { name: 'pkg/big.bin', data: Buffer.alloc(64 * 1024, 7) },
  { name: 'pkg/README', data: Buffer.from('# x\n') },
];
const stream = (b: Buffer) => Readable.from([b]);

describe('the registries\' tar reader', () => {
  it('keeps only the wanted members, in order, from a plain or gzipped archive, and stops when done', async () => {
    const tar = await writeTar(files);
    const all = await tarEntries(stream(tar), { want: (n) => (n.endsWith('.bin') ? null : 1024) });
    expect(all.map((e) => [e.name, e.data.toString()])).toEqual([['pkg/meta.json', '{"name":"x"}'], ['pkg/README', '# x\n']]);
    const first = await tarEntries(stream(zlib.gzipSync(tar)), { gzip: true, want: () => 1 << 20, done: (k) => k.length > 0 });
    expect(first.map((e) => e.name)).toEqual(['pkg/meta.json']);
    const members = await readTarMembers(tar, (n) => n.endsWith('README'), 1);
    expect([...members.keys()]).toEqual(['pkg/README']);
  });

  it('refuses a member over its cap, a truncated archive, garbage and a bomb past maxScan with a 400', async () => {
    const tar = await writeTar(files);
    const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(BadRequestError);
    await refused(tarEntries(stream(tar), { want: (n) => (n.endsWith('.bin') ? 1024 : null) }));
    await refused(tarEntries(stream(tar.subarray(0, 700)), { want: () => 1 << 20 }));
    await refused(tarEntries(stream(Buffer.from('this is not a tar archive at all'.repeat(40))), { want: () => 1 << 20 }));
    await refused(tarEntries(stream(Buffer.from('not gzip')), { gzip: true, want: () => 1 << 20 }));
    const bomb = zlib.gzipSync(await writeTar([{ name: 'zeros', data: Buffer.alloc(8 << 20) }]));
    await expect(tarEntries(stream(bomb), { gzip: true, want: () => null, maxScan: 1 << 20 })).rejects.toThrow(/too large to read/);
    await refused(readTarMembers(Buffer.from('garbage'.repeat(100)), () => true));
  });
});
