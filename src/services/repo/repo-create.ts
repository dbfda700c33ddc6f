import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { writeCommit, updateRef, type FileChange } from '../../git/commit';
import { isValidBranchName } from '../../git/refs';
import { initBare, removeRepoDir, repoDir, zeroId, type ObjectFormat } from '../../git/repo';
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
import { recordLicenses } from './licenses';
import { signInitialCommit } from '../signing/sign-rules';

export type CreateRepoInput = {
  name: string;
  description?: string;
  private?: boolean;
  template?: boolean;
  autoInit?: boolean;
  readme?: string;
  gitignores?: string;
  license?: string;
  defaultBranch?: string;
  objectFormat?: string;
  /** Runs in the creating transaction once the row exists (organizations: team access). */
  onCreated?: (trx: DB, repo: Repository) => Promise<void>;
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

/**
 * Creates the row and the bare repository together: if git fails the row is rolled back and
 * the directory removed; if the row fails the directory is removed.
 */
export async function createRepository(db: DB, config: Config, doer: User, owner: User, input: CreateRepoInput): Promise<Repository> {
  assertValidRepoName(input.name);
  const objectFormat = objectFormatOf(input.objectFormat);
  const defaultBranch = input.defaultBranch?.trim() || config.repository.default_branch;
  if (!(await isValidBranchName(defaultBranch))) throw new InvalidError('[default_branch]: invalid branch name', 'default_branch');
  const dir = repoDir(config.repository.root, owner.name, input.name);
  const files = input.autoInit ? initialFiles(input, owner) : [];
  // Decided before the transaction: the rules read the database.
  const signer = files.length ? await signInitialCommit(db, config, doer) : null;
  const created = await db.transaction().execute(async (trx) => {
    if (await getRepoByOwnerAndName(trx, owner.id, input.name)) {
      throw new ConflictError('The repository with the same name already exists.');
    }
    if (fs.existsSync(dir)) throw new ConflictError(`repository files already exist [${owner.name}/${input.name}]`);
    const now = nowUnix();
    const repo = await insertRepo(trx, {
      owner_id: owner.id, owner_name: owner.name, lower_name: input.name.toLowerCase(), name: input.name,
      description: input.description ?? '', default_branch: defaultBranch, object_format_name: objectFormat,
      is_private: input.private ? 1 : 0, is_template: input.template ? 1 : 0,
      settings: JSON.stringify(DEFAULT_SETTINGS), created_unix: now, updated_unix: now,
    });
    if (input.onCreated) await input.onCreated(trx, repo);
    try {
      await initBare(dir, { objectFormat, defaultBranch });
      if (files.length) {
        const sig = { name: doer.full_name || doer.name, email: doer.email };
        const commit = await writeCommit(dir, { parent: null, changes: files, message: 'Initial commit', author: sig, committer: sig, signer });
        await updateRef(dir, `refs/heads/${defaultBranch}`, commit, null, zeroId(objectFormat));
      }
      await bumpUserRepos(trx, owner.id, 1);
      // As Gitea (AutoWatchNewRepos): the creator watches the new repository.
      await markWatch(trx, doer.id, repo.id, true);
      await copyDefaultWebhooksToRepo(trx, repo.id, now);
      await recordAudit(trx, { op: 'repo.create', target: repoTarget(repo), repo, extra: { private: !!repo.is_private } });
    } catch (err) {
      removeRepoDir(dir);
      throw err;
    }
    return (await getRepoById(trx, repo.id))!;
  });
  let repo = files.length ? await syncRepoFromGit(db, created, dir, doer.id) : created;
  // As Gitea: the license chosen at creation is the repository's, in the answer already.
  if (input.license && input.autoInit) repo = await recordLicenses(db, repo, [input.license]);
  await emit(db, 'repo.created', { repo, doer, owner });
  return repo;
}
