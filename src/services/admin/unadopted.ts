import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { git, gitRun } from '../../git/exec';
import { listBranchHeads, removeRepoDir, repoDir, type ObjectFormat } from '../../git/repo';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { compileGlobOrLiteral } from '../../lib/glob';
import { nowUnix } from '../../lib/time';
import { teamsForNewRepo } from '../../models/org';
import { getRepoById, getRepoByOwnerAndName, insertRepo } from '../../models/repo';
import { bumpUserRepos } from '../../models/repo-owner';
import { addTeamRepo } from '../../models/team-rights';
import { existingRepoNames } from '../../models/unadopted';
import { getUserByName } from '../../models/user';
import { copyDefaultWebhooksToRepo } from '../../models/webhook';
import { recordAudit, repoTarget } from '../audit/record';
import { emit } from '../events/bus';
import { assertValidRepoName } from '../names';
import { ORG_TYPE } from '../permissions';
import { DEFAULT_SETTINGS } from '../repo/repo-settings';
import { syncRepoFromGit } from '../repo/repo-sync';
import type { Hearth } from '../../hearth';

// Repositories on disk without a row (Gitea's services/repository/adopt.go): listed from the
// repositories root (<root>/<owner>/<name>.git, lower-case), adopted by building the row from
// the bare repository, or deleted.

const isUsableRepoName = (name: string) => {
  try {
    assertValidRepoName(name);
    return true;
  } catch {
    return false;
  }
};

const subdirs = (dir: string): string[] => {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch {
    return [];
  }
};

/** A directory name (without .git) the unadopted API lists: lower-case and a valid repository name. */
const adoptableName = (n: string) => n === n.toLowerCase() && isUsableRepoName(n);

/**
 * Whether `<root>/<owner>/<name>.git` without a row is an unadopted repository (the admin API
 * lists, adopts and deletes those): its owner exists and the name could be a repository's.
 */
export async function isUnadopted(db: DB, ownerName: string, name: string): Promise<boolean> {
  return adoptableName(name) && (await getUserByName(db, ownerName)) !== undefined;
}

/** `owner/name` patterns as Gitea's: a glob for the owner, one for the name, each optional. */
function patternOf(query: string): { owner: RegExp; repo: RegExp } {
  const [owner, repo] = query ? [query.split('/')[0]!, query.split('/').slice(1).join('/')] : ['', ''];
  // As Gitea, an invalid expression does not fail the listing (taken literally here).
  const compile = (p: string) => compileGlobOrLiteral(p || '*');
  return { owner: compile(owner), repo: compile(query.includes('/') ? repo : '') };
}

/** Every unadopted `owner/name` matching the pattern, in the directory order, paged. */
export async function listUnadopted(
  h: Hearth, query: string, page: { limit: number; offset: number },
): Promise<{ names: string[]; total: number }> {
  const pattern = patternOf(query);
  const all: string[] = [];
  for (const ownerName of subdirs(h.config.repository.root)) {
    if (!pattern.owner.test(ownerName)) continue;
    const names = subdirs(path.join(h.config.repository.root, ownerName))
      .filter((d) => d.endsWith('.git')).map((d) => d.slice(0, -4))
      .filter((n) => adoptableName(n) && pattern.repo.test(n));
    if (!names.length) continue;
    const owner = await getUserByName(h.db, ownerName);
    if (!owner) continue;
    const known = await existingRepoNames(h.db, owner.id, names);
    for (const n of names) if (!known.has(n)) all.push(`${ownerName}/${n}`);
  }
  return { names: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

/** The owner and directory of an unadopted repository; 404 when there is no such directory or it has a row. */
async function unadoptedDir(h: Hearth, ownerName: string, name: string): Promise<{ owner: User; dir: string }> {
  const owner = await getUserByName(h.db, ownerName);
  if (!owner || !isUsableRepoName(name)) throw new NotFoundError();
  const dir = repoDir(h.config.repository.root, owner.name, name);
  if (await getRepoByOwnerAndName(h.db, owner.id, name)) throw new NotFoundError();
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new NotFoundError();
  return { owner, dir };
}

/** The branch HEAD names if it exists, else Gitea's fallbacks: the configured default, master, main, the first. */
async function defaultBranchOf(config: Config, dir: string): Promise<string> {
  const head = (await gitRun(['symbolic-ref', '--short', 'HEAD'], { gitDir: dir })).stdout.toString().trim();
  const names = (await listBranchHeads(dir)).map((h) => h.name);
  const preferred = [head, config.repository.default_branch, 'master', 'main'].find((b) => b && names.includes(b));
  const branch = preferred ?? names[0] ?? config.repository.default_branch;
  if (branch !== head) await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { gitDir: dir });
  return branch;
}

/**
 * Adopts `<root>/<owner>/<name>.git`: a private repository, as Gitea adopts it. The directory's
 * own hooks are replaced by an empty hooks directory, as a created repository has.
 */
export async function adoptRepository(h: Hearth, doer: User, ownerName: string, name: string): Promise<Repository> {
  const { owner, dir } = await unadoptedDir(h, ownerName, name);
  const bare = await gitRun(['rev-parse', '--is-bare-repository'], { gitDir: dir });
  if (bare.code !== 0 || bare.stdout.toString().trim() !== 'true') throw new InvalidError(`${owner.name}/${name} is not a bare git repository`);
  const format = (await gitRun(['rev-parse', '--show-object-format'], { gitDir: dir })).stdout.toString().trim();
  const objectFormat: ObjectFormat = format === 'sha256' ? 'sha256' : 'sha1';
  const branch = await defaultBranchOf(h.config, dir);
  fs.rmSync(path.join(dir, 'hooks'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'hooks'));
  const created = await h.db.transaction().execute(async (trx) => {
    const now = nowUnix();
    const repo = await insertRepo(trx, {
      owner_id: owner.id, owner_name: owner.name, lower_name: name.toLowerCase(), name,
      default_branch: branch, object_format_name: objectFormat, is_private: 1,
      settings: JSON.stringify(DEFAULT_SETTINGS), created_unix: now, updated_unix: now,
    });
    await bumpUserRepos(trx, owner.id, 1);
    if (owner.type === ORG_TYPE) for (const team of await teamsForNewRepo(trx, owner.id, doer.id)) await addTeamRepo(trx, team, repo.id);
    await copyDefaultWebhooksToRepo(trx, repo.id, now);
    await recordAudit(trx, { op: 'repo.adopt', target: repoTarget(repo), repo, extra: { default_branch: branch, object_format: objectFormat } });
    return (await getRepoById(trx, repo.id))!;
  });
  const repo = await syncRepoFromGit(h.db, created, dir, doer.id);
  await emit(h.db, 'repo.created', { repo, doer, owner });
  return repo;
}

/** Removes the files of an unadopted repository. */
export async function deleteUnadopted(h: Hearth, ownerName: string, name: string): Promise<void> {
  const { owner, dir } = await unadoptedDir(h, ownerName, name);
  removeRepoDir(dir);
  // No row to go with: the repository never had one (target id 0).
  await recordAudit(h.db, { op: 'repo.unadopted.delete', target: { type: 'repo', id: 0, name: `${owner.name}/${name}` }, owner });
}
