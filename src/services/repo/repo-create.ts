import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { writeCommit, updateRef, type FileChange } from '../../git/commit';
import { isValidBranchName } from '../../git/refs';
import { initBare, repoDir, zeroId, type ObjectFormat } from '../../git/repo';
import { ConflictError, InvalidError } from '../../lib/errors';
import { fillLicense } from '../../lib/license-fill';
import { readTemplate } from '../../lib/templates';
import { nowUnix } from '../../lib/time';
import { getRepoById, getRepoByOwnerAndName, insertRepo } from '../../models/repo';
import { bumpUserRepos } from '../../models/repo-owner';
import { copyDefaultWebhooksToRepo } from '../../models/webhook';
import { assertValidRepoName } from '../names';
import { DEFAULT_SETTINGS } from './repo-settings';
import { syncRepoFromGit } from './repo-sync';
import { markWatch } from './stars';
import { emit } from '../events/bus';
import { recordAudit, repoTarget } from '../audit/record';
import { recordLicenses, syncRepoLicenses } from './licenses';
import { createRepoFilesFirst, finishNewRepo } from './repo-create-intent';
import { loadLabelTemplate, type TemplateLabel } from '../../lib/label-templates';
import { createLabel } from '../issue/labels';
import { signInitialCommit } from '../signing/sign-rules';
import type { CommitSigner } from '../signing/instance-key';
import type { Hearth } from '../../hearth';

export type CreateRepoInput = {
  name: string;
  description?: string;
  private?: boolean;
  template?: boolean;
  autoInit?: boolean;
  readme?: string;
  gitignores?: string;
  license?: string;
  /** A label set of assets/options/label (Gitea's issue_labels): its labels are the repository's. */
  issueLabels?: string;
  defaultBranch?: string;
  objectFormat?: string;
  /** Runs in the creating transaction once the row exists (organizations: team access). */
  onCreated?: (trx: DB, repo: Repository) => Promise<void>;
  /** Writes the first content into the new bare repository, before the row (a template's tree). */
  fill?: (dir: string, defaultBranch: string) => Promise<void>;
};

function objectFormatOf(value: string | undefined): ObjectFormat {
  if (!value || value === 'sha1') return 'sha1';
  if (value === 'sha256') return 'sha256';
  throw new InvalidError(`[object_format_name]: must be one of sha1, sha256`, 'object_format_name');
}

/** The files of an auto-initialised repository: README, .gitignore and LICENSE from templates. */
function initialFiles(input: CreateRepoInput, owner: User): FileChange[] {
  const files: FileChange[] = [];
  const readme = readTemplate('readme', input.readme || 'Default');
  if (!readme) throw new InvalidError(`readme template does not exist [name: ${input.readme}]`, 'readme');
  files.push({ path: 'README.md', content: Buffer.from(readme.replaceAll('{Name}', input.name).replaceAll('{Description}', input.description ?? '')) });
  const ignores = (input.gitignores ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (ignores.length) {
    const parts = ignores.map((name) => {
      const text = readTemplate('gitignore', name);
      if (text === undefined) throw new InvalidError(`gitignore template does not exist [name: ${name}]`, 'gitignores');
      return `# ---> ${name}\n${text}\n`;
    });
    files.push({ path: '.gitignore', content: Buffer.from(parts.join('')) });
  }
  if (input.license) {
    const text = readTemplate('license', input.license);
    if (text === undefined) throw new InvalidError(`license template does not exist [name: ${input.license}]`, 'license');
    // Gitea's placeholders and values: the owner's name and email, the repository name, the year.
    const filled = fillLicense(input.license, text, {
      owner: owner.name, email: owner.email, repo: input.name, year: String(new Date().getFullYear()),
    });
    files.push({ path: 'LICENSE', content: Buffer.from(filled) });
  }
  return files;
}

type NewRepo = { objectFormat: ObjectFormat; defaultBranch: string; dir: string };

/** The bare repository with its first commit (auto-init files, or what `fill` writes): git only. */
async function makeFiles(doer: User, input: CreateRepoInput, at: NewRepo, files: FileChange[], signer: CommitSigner | null): Promise<void> {
  const { dir, objectFormat, defaultBranch } = at;
  await initBare(dir, { objectFormat, defaultBranch });
  if (input.fill) await input.fill(dir, defaultBranch);
  if (files.length) {
    const sig = { name: doer.full_name || doer.name, email: doer.email };
    const commit = await writeCommit(dir, { parent: null, changes: files, message: 'Initial commit', author: sig, committer: sig, signer });
    await updateRef(dir, `refs/heads/${defaultBranch}`, commit, null, zeroId(objectFormat));
  }
}

/** The row and what comes with it, in the creating transaction. */
async function insertNewRepo(trx: DB, doer: User, owner: User, input: CreateRepoInput, at: NewRepo, labels: TemplateLabel[]): Promise<Repository> {
  if (await getRepoByOwnerAndName(trx, owner.id, input.name)) {
    throw new ConflictError('The repository with the same name already exists.');
  }
  const now = nowUnix();
  const repo = await insertRepo(trx, {
    owner_id: owner.id, owner_name: owner.name, lower_name: input.name.toLowerCase(), name: input.name,
    description: input.description ?? '', default_branch: at.defaultBranch, object_format_name: at.objectFormat,
    is_private: input.private ? 1 : 0, is_template: input.template ? 1 : 0,
    settings: JSON.stringify(DEFAULT_SETTINGS), created_unix: now, updated_unix: now,
  });
  for (const l of labels) await createLabel(trx, { repoId: repo.id }, { name: l.name, color: l.color, description: l.description, exclusive: l.exclusive });
  if (input.onCreated) await input.onCreated(trx, repo);
  await bumpUserRepos(trx, owner.id, 1);
  // As Gitea (AutoWatchNewRepos): the creator watches the new repository.
  await markWatch(trx, doer.id, repo.id, true);
  await copyDefaultWebhooksToRepo(trx, repo.id, now);
  await recordAudit(trx, { op: 'repo.create', target: repoTarget(repo), repo, extra: { private: !!repo.is_private } });
  return (await getRepoById(trx, repo.id))!;
}

/**
 * Creates the bare repository and then the row (repo-create-intent.ts): if git fails nothing is
 * inserted and the directory is removed; if the row fails the directory is removed; a crash
 * before the commit leaves an intent by which the next start removes the directory.
 */
export async function createRepository(h: Hearth, doer: User, owner: User, input: CreateRepoInput): Promise<Repository> {
  assertValidRepoName(input.name);
  const objectFormat = objectFormatOf(input.objectFormat);
  const defaultBranch = input.defaultBranch?.trim() || h.config.repository.default_branch;
  if (!(await isValidBranchName(defaultBranch))) throw new InvalidError('[default_branch]: invalid branch name', 'default_branch');
  const at: NewRepo = { objectFormat, defaultBranch, dir: repoDir(h.config.repository.root, owner.name, input.name) };
  const files = input.autoInit ? initialFiles(input, owner) : [];
  const labels = input.issueLabels ? loadLabelTemplate(input.issueLabels) : [];
  if (!labels) throw new InvalidError(`label template does not exist [name: ${input.issueLabels}]`, 'issue_labels');
  // Decided before the transaction: the rules read the database.
  const signer = files.length ? await signInitialCommit(h, doer) : null;
  if (await getRepoByOwnerAndName(h.db, owner.id, input.name)) throw new ConflictError('The repository with the same name already exists.');
  // Crash points of their own for a template's content (repo-generate.*), for the tests.
  const area = input.fill ? 'repo-generate' : 'repo-create';
  const { repo: created, intent } = await createRepoFilesFirst(
    h.db, { area, ownerId: owner.id, ownerName: owner.name, name: input.name, dir: at.dir, doerId: doer.id },
    () => makeFiles(doer, input, at, files, signer), (trx) => insertNewRepo(trx, doer, owner, input, at, labels),
  );
  const repo = await finishNewRepo(h.db, area, intent, async () => {
    const synced = files.length || input.fill ? await syncRepoFromGit(h.db, created, at.dir, doer.id) : created;
    // As Gitea: the license chosen at creation is the repository's, in the answer already.
    if (input.license && input.autoInit) return recordLicenses(h.db, synced, [input.license]);
    if (input.fill) return { ...synced, licenses: JSON.stringify(await syncRepoLicenses(h, synced)) };
    return synced;
  });
  await emit(h.db, 'repo.created', { repo, doer, owner });
  return repo;
}
