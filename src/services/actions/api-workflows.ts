import { commitInfos, refTarget } from '../../git/refs';
import { NotFoundError } from '../../lib/errors';
import { disabledWorkflows, setWorkflowDisabled } from '../../models/actions-workflow-state';
import { repoDirOf } from '../repo/commits';
import type { RepoAccess } from '../repo/repos';
import { readYaml } from './workflow/parse';
import { listWorkflowFiles, readWorkflowFile } from './workflow-files';
import type { Hearth } from '../../hearth';

// The workflows of a repository's default branch, as Gitea's ListActionWorkflows: the name is
// the file's `name:` (the file name when absent or unreadable), the dates those of the default
// branch's head commit (Gitea does not look up each file's history either).

export type WorkflowView = {
  id: string; name: string; path: string; disabled: boolean; date: string; branch: string;
};

async function nameOf(dir: string, f: Parameters<typeof readWorkflowFile>[1]): Promise<string> {
  try {
    const doc = readYaml(await readWorkflowFile(dir, f)) as { name?: unknown } | null;
    return typeof doc?.name === 'string' && doc.name ? doc.name : f.id;
  } catch {
    return f.id;
  }
}

export async function listWorkflows(h: Hearth, access: RepoAccess): Promise<WorkflowView[]> {
  const dir = repoDirOf(h.config, access);
  const branch = access.repo.default_branch;
  const head = access.repo.is_empty ? null : await refTarget(dir, `refs/heads/${branch}`);
  if (!head) return [];
  const files = await listWorkflowFiles(dir, head);
  const date = (await commitInfos(dir, [head])).get(head)?.author.date ?? new Date(0).toISOString();
  const disabled = await disabledWorkflows(h.db, access.repo.id);
  const out: WorkflowView[] = [];
  for (const f of files) {
    out.push({ id: f.id, name: await nameOf(dir, f), path: f.path, disabled: disabled.has(f.id), date, branch });
  }
  return out;
}

export async function getWorkflow(h: Hearth, access: RepoAccess, id: string): Promise<WorkflowView> {
  const found = (await listWorkflows(h, access)).find((w) => w.id === id);
  if (!found) throw new NotFoundError(`workflow "${id}" not found`);
  return found;
}

/** Gitea's EnableOrDisableWorkflow: the workflow must exist at the default branch. */
export async function setWorkflowEnabled(h: Hearth, access: RepoAccess, id: string, enabled: boolean): Promise<void> {
  await getWorkflow(h, access, id);
  await setWorkflowDisabled(h.db, access.repo.id, id, !enabled);
}
