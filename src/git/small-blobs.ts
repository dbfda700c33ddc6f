import { blobsBytes } from './blob';
import { git } from './exec';

/**
 * The bytes of every blob of at most `maxSize` bytes reachable from any ref (LFS pointer
 * candidates: the gc_lfs task keeps the objects they name). Larger blobs are never read.
 */
export async function smallBlobsInRefs(dir: string, maxSize: number): Promise<Buffer[]> {
  const listed = await git(['rev-list', '--objects', '--all', `--filter=blob:limit=${maxSize + 1}`], { gitDir: dir });
  const shas = listed.split('\n').map((l) => l.slice(0, l.indexOf(' ') < 0 ? l.length : l.indexOf(' '))).filter(Boolean);
  if (!shas.length) return [];
  const checked = await git(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { gitDir: dir, input: `${shas.join('\n')}\n` });
  const blobs = checked.split('\n').map((l) => l.split(' ')).filter((f) => f[1] === 'blob' && Number(f[2]) <= maxSize).map((f) => f[0]!);
  return [...(await blobsBytes(dir, blobs)).values()];
}
