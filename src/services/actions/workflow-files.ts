import { gitRun } from '../../git/exec';
import { readBlob } from '../../git/tree-files';

// The workflow files of a commit, as Gitea's ListWorkflows: `.gitea/workflows` when that
// directory exists, else `.github/workflows`; every *.yml / *.yaml below it (subdirectories
// too), the workflow id being the path inside the directory (`ci.yml`).

export const WORKFLOW_DIRS = ['.gitea/workflows', '.github/workflows'] as const;

export type WorkflowFile = { id: string; path: string; sha: string };

async function listUnder(dir: string, rev: string, base: string): Promise<WorkflowFile[] | null> {
  const r = await gitRun(['ls-tree', '-r', '-z', '--end-of-options', `${rev}:${base}`], { gitDir: dir });
  if (r.code !== 0) return null;
  const out: WorkflowFile[] = [];
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [, kind, sha] = entry.slice(0, tab).split(/\s+/);
    const name = entry.slice(tab + 1);
    if (kind !== 'blob' || !/\.ya?ml$/.test(name)) continue;
    out.push({ id: name, path: `${base}/${name}`, sha: sha! });
  }
  return out;
}

/** The workflow files at `rev` (a commit id or ref); [] when there are none. */
export async function listWorkflowFiles(dir: string, rev: string): Promise<WorkflowFile[]> {
  if (!rev || rev.startsWith('-')) return [];
  for (const base of WORKFLOW_DIRS) {
    const files = await listUnder(dir, rev, base);
    if (files) return files;
  }
  return [];
}

export async function readWorkflowFile(dir: string, f: WorkflowFile): Promise<string> {
  return (await readBlob(dir, f.sha)).toString('utf8');
}

/** The files changed between two commits (paths filters); all files of `to` when `from` is empty or zero. */
export async function changedFiles(dir: string, from: string | null, to: string): Promise<string[]> {
  const base = from && !/^0+$/.test(from) ? from : null;
  const args = base ? ['diff', '--name-only', '-z', '--no-renames', base, to, '--'] : ['ls-tree', '-r', '-z', '--name-only', to];
  const r = await gitRun(args, { gitDir: dir });
  if (r.code !== 0) return [];
  return r.stdout.toString('utf8').split('\0').filter(Boolean);
}
