import { gitRun } from './exec';

export type TreeEntryKind = 'blob' | 'tree' | 'commit';
export type TreeEntryName = { name: string; kind: TreeEntryKind; mode: string };

/**
 * The top-level entries of the tree of `rev` (`git ls-tree -z`), or null when `rev` does not
 * name a commit or tree. Names are returned raw: callers escape them for display.
 */
export async function listTopLevel(dir: string, rev: string): Promise<TreeEntryName[] | null> {
  if (rev.startsWith('-')) return null;
  const r = await gitRun(['ls-tree', '-z', '--end-of-options', rev], { gitDir: dir });
  if (r.code !== 0) return null;
  const entries: TreeEntryName[] = [];
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, kind] = entry.slice(0, tab).split(' ');
    entries.push({ name: entry.slice(tab + 1), kind: kind as TreeEntryKind, mode: mode! });
  }
  return entries;
}
