import { gitBytes, gitRun } from './exec';

// Reading a few named files of a commit without a work tree (issue templates and the like).

export type TreeFile = { path: string; sha: string; size: number };

function parseLsTree(out: Buffer, prefix: string): TreeFile[] {
  const files: TreeFile[] = [];
  for (const entry of out.toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [, kind, sha, size] = entry.slice(0, tab).split(/\s+/);
    if (kind !== 'blob') continue;
    files.push({ path: prefix + entry.slice(tab + 1), sha: sha!, size: Number(size) || 0 });
  }
  return files;
}

/** The files (blobs, not subdirectories) directly in `dirPath` at `rev`; [] when it is no directory. */
export async function listDirFiles(dir: string, rev: string, dirPath: string): Promise<TreeFile[]> {
  if (rev.startsWith('-')) return [];
  const r = await gitRun(['ls-tree', '-z', '-l', '--end-of-options', `${rev}:${dirPath}`], { gitDir: dir });
  return r.code === 0 ? parseLsTree(r.stdout, `${dirPath}/`) : [];
}

/** Which of `paths` exist as files at `rev`, in the order given. */
export async function existingFiles(dir: string, rev: string, paths: string[]): Promise<TreeFile[]> {
  if (rev.startsWith('-') || !paths.length) return [];
  const r = await gitRun(['ls-tree', '-z', '-l', '--end-of-options', rev, '--', ...paths], { gitDir: dir });
  if (r.code !== 0) return [];
  const found = new Map(parseLsTree(r.stdout, '').map((f) => [f.path, f]));
  return paths.flatMap((p) => found.get(p) ?? []);
}

export const readBlob = (dir: string, sha: string): Promise<Buffer> =>
  gitBytes(['cat-file', 'blob', sha], { gitDir: dir });
