import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { cloneBare } from '../../git/fork-copy';
import { repoDir } from '../../git/repo';
import { ConflictError, ForbiddenError, InvalidError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isBlockedBy } from '../../models/blocking';
import { getOrgByName } from '../../models/org';
import { bumpCounter, getRepoByOwnerAndName, insertRepo } from '../../models/repo';
import { bumpUserRepos, getForkByOwner } from '../../models/repo-owner';
import { searchRepos } from '../../models/repo-search';
import { copyDefaultWebhooksToRepo } from '../../models/webhook';
import { copyMetaObjects } from '../../models/lfs';
import { isOrgMember } from '../../models/team-access';
import { assertValidRepoName } from '../names';
import { accessMode } from '../permissions';
import { DEFAULT_SETTINGS } from './repo-settings';
import { createRepoFilesFirst, finishNewRepo } from './repo-create-intent';
import { syncRepoFromGit } from './repo-sync';
import { withAccess, type RepoAccess, type RepoWithParent } from './repos';
import { markWatch } from './stars';
import { VISIBILITY } from '../visibility';
import { emit } from '../events/bus';
import { recordAudit, repoTarget } from '../audit/record';
import type { Hearth } from '../../hearth';

export type ForkInput = { organization?: string; name?: string };

/** Who will own the fork: the caller, or an organization the caller belongs to. */
async function forkOwner(db: DB, doer: User, organization: string | undefined): Promise<User> {
  if (organization === undefined) return doer;
  const org = await getOrgByName(db, organization);
  if (!org) throw new InvalidError(`org does not exist [name: ${organization}]`, 'organization');
  if (!doer.is_admin && !(await isOrgMember(db, org.id, doer.id))) {
    throw new ForbiddenError(`User is no Member of Organisation '${org.name}'`);
  }
  return org;
}

async function assertForkable(db: DB, base: RepoAccess, owner: User, name: string): Promise<void> {
  const existing = await getForkByOwner(db, base.repo.id, owner.id);
  if (existing) {
    throw new ConflictError(`repository is already forked by user [uname: ${owner.name}, repo path: ${base.owner.name}/${base.repo.name}, fork path: ${existing.owner_name}/${existing.name}]`);
  }
  if (await getRepoByOwnerAndName(db, owner.id, name)) throw new ConflictError('The repository with the same name already exists.');
}

/** The fork's row, counted on its parent and owner, with the doer watching it (as Gitea). */
async function insertFork(db: DB, doer: User, base: RepoAccess, owner: User, name: string): Promise<Repository> {
  const now = nowUnix();
  const fork = await insertRepo(db, {
    owner_id: owner.id, owner_name: owner.name, lower_name: name.toLowerCase(), name,
    description: base.repo.description, default_branch: base.repo.default_branch,
    object_format_name: base.repo.object_format_name, is_empty: base.repo.is_empty,
    is_private: base.repo.is_private || base.owner.visibility === VISIBILITY.private ? 1 : 0,
    is_fork: 1, fork_id: base.repo.id, settings: JSON.stringify(DEFAULT_SETTINGS), created_unix: now, updated_unix: now,
  });
  await bumpCounter(db, base.repo.id, 'num_forks', 1);
  await bumpUserRepos(db, owner.id, 1);
  await markWatch(db, doer.id, fork.id, true);
  // As Gitea's CreateRepositoryByExample, which forks go through too.
  await copyDefaultWebhooksToRepo(db, fork.id, now);
  await copyMetaObjects(db, base.repo.id, fork.id, now);
  await recordAudit(db, { op: 'repo.create', target: repoTarget(fork), repo: fork, extra: { fork_of: `${base.owner.name}/${base.repo.name}` } });
  return fork;
}

/**
 * POST /repos/{owner}/{repo}/forks: the bare copy first, then the row (repo-create-intent.ts): if
 * the copy or the row fails the directory is removed; a crash before the commit leaves an intent
 * by which the next start removes it, one after the commit an intent by which it syncs.
 */
export async function forkRepository(h: Hearth, doer: User, base: RepoAccess, input: ForkInput): Promise<RepoWithParent> {
  const owner = await forkOwner(h.db, doer, input.organization);
  const name = input.name ?? base.repo.name;
  assertValidRepoName(name);
  if (await isBlockedBy(h.db, doer.id, [base.owner.id])) throw new ForbiddenError('user is blocked by the repository owner');
  const src = repoDir(h.config.repository.root, base.owner.name, base.repo.name);
  const dir = repoDir(h.config.repository.root, owner.name, name);
  await assertForkable(h.db, base, owner, name);
  const target = { area: 'repo-fork' as const, ownerId: owner.id, ownerName: owner.name, name, dir, doerId: doer.id, forkOf: base.repo.id };
  const { repo: created, intent } = await createRepoFilesFirst(h.db, target, () => cloneBare(src, dir, base.repo.default_branch), async (trx) => {
    // Checked again with the row: another fork may have committed while this one copied.
    await assertForkable(trx, base, owner, name);
    return insertFork(trx, doer, base, owner, name);
  });
  const fork = await finishNewRepo(h.db, 'repo-fork', intent, () => syncRepoFromGit(h.db, created, dir, doer.id));
  await emit(h.db, 'repo.forked', { repo: base.repo, doer, fork });
  return { repo: fork, owner, mode: await accessMode(h.db, doer, fork, owner), parent: base };
}

/** GET /repos/{owner}/{repo}/forks: the forks the caller may see. */
export async function listForks(
  db: DB, base: RepoAccess, viewer: User | null, page: { offset: number; limit: number }, publicOnly: boolean,
): Promise<{ repos: RepoWithParent[]; total: number }> {
  const { repos, total } = await searchRepos(db, {
    viewer, publicOnly, forkOf: base.repo.id, sort: 'id', order: 'asc', offset: page.offset, limit: page.limit,
  });
  return { repos: await withAccess(db, repos, viewer), total };
}
