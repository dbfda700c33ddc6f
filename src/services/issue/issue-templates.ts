import type { Config } from '../../config/schema';
import type { Repository, User } from '../../db/schema';
import { existingFiles, listDirFiles, readBlob } from '../../git/tree-files';
import { repoDir } from '../../git/repo';
import {
  defaultIssueConfig, parseIssueConfig, parseIssueTemplate, templateKind, type IssueConfig, type IssueTemplate,
} from '../../lib/issue-template';

// Issue templates and their configuration, read from the default branch as Gitea does.

const TEMPLATE_DIRS = [
  'ISSUE_TEMPLATE', 'issue_template', '.gitea/ISSUE_TEMPLATE', '.gitea/issue_template',
  '.github/ISSUE_TEMPLATE', '.github/issue_template', '.gitlab/ISSUE_TEMPLATE', '.gitlab/issue_template',
];
const CONFIG_FILES = [
  '.gitea/ISSUE_TEMPLATE/config', '.gitea/issue_template/config', '.github/ISSUE_TEMPLATE/config', '.github/issue_template/config',
].flatMap((base) => [`${base}.yaml`, `${base}.yml`]);

/** Gitea's UI.MaxDisplayFileSize: larger template files are invalid. */
const MAX_TEMPLATE_SIZE = 8 * 1024 * 1024;
const MAX_CONFIG_SIZE = 1024 * 1024;

type RepoRef = { repo: Repository; owner: User };
const branchRef = (repo: Repository) => `refs/heads/${repo.default_branch}`;
const dirOf = (config: Config, r: RepoRef) => repoDir(config.repository.root, r.owner.name, r.repo.name);

export type TemplateList = { templates: IssueTemplate[]; errors: Map<string, string> };

/** Valid templates in directory order; invalid files are reported apart, as Gitea's warning header. */
export async function listIssueTemplates(config: Config, r: RepoRef): Promise<TemplateList> {
  const out: TemplateList = { templates: [], errors: new Map() };
  if (r.repo.is_empty) return out;
  const dir = dirOf(config, r);
  for (const templateDir of TEMPLATE_DIRS) {
    for (const file of await listDirFiles(dir, branchRef(r.repo), templateDir)) {
      if (!templateKind(file.path)) continue;
      try {
        if (file.size > MAX_TEMPLATE_SIZE) throw new Error(`too large: ${file.size} > MaxDisplayFileSize`);
        const it = parseIssueTemplate(file.path, (await readBlob(dir, file.sha)).toString('utf8'));
        // A bare name is taken as a branch; tags must be given as refs/tags/<name>.
        if (!it.ref.startsWith('refs/')) it.ref = `refs/heads/${it.ref}`;
        out.templates.push(it);
      } catch (err) {
        out.errors.set(file.path, (err as Error).message);
      }
    }
  }
  return out;
}

/** The configuration and, when it is invalid, why (the defaults apply then). */
export async function readIssueConfig(config: Config, r: RepoRef): Promise<{ config: IssueConfig; error: string | null }> {
  if (r.repo.is_empty) return { config: defaultIssueConfig(), error: null };
  const dir = dirOf(config, r);
  const [file] = await existingFiles(dir, branchRef(r.repo), CONFIG_FILES);
  if (!file) return { config: defaultIssueConfig(), error: null };
  try {
    if (file.size > MAX_CONFIG_SIZE) throw new Error('file is too large');
    return { config: parseIssueConfig((await readBlob(dir, file.sha)).toString('utf8')), error: null };
  } catch (err) {
    return { config: defaultIssueConfig(), error: (err as Error).message };
  }
}
