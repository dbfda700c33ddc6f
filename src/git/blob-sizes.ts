import { git } from './exec';

export type BlobSize = { path: string; size: number };

/** Every file of the tree of `rev` with its size (`git ls-tree -r -l`); submodules are left out. */
export async function listBlobSizes(dir: string, rev: string): Promise<BlobSize[]> {
  const out = await git(['ls-tree', '-r', '-l', '-z', '--end-of-options', rev], { gitDir: dir });
  const files: BlobSize[] = [];
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [, type, , size] = entry.slice(0, tab).split(/\s+/);
    if (type !== 'blob') continue;
    files.push({ path: entry.slice(tab + 1), size: Number(size) || 0 });
  }
  return files;
}
