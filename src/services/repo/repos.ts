import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { getRedirect, getRepoById, getRepoByOwnerAndName } from '../../models/repo';
import { getUserById, getUserByName } from '../../models/user';
import { ACCESS, accessMode, type AccessMode } from '../permissions';

export type RepoAccess = { repo: Repository; owner: User; mode: AccessMode };
export type RepoLookup = RepoAccess | { redirectTo: { owner: string; name: string } };

const notFound = () => new NotFoundError('The target couldn\'t be found.');

/**
 * Resolves `owner/name` for `viewer`: the repository with the caller's access mode, a redirect
 * after a rename, or 404 when missing or not visible to the caller.
 */
export async function lookupRepo(db: DB, ownerName: string, repoName: string, viewer: User | null): Promise<RepoLookup> {
  const owner = await getUserByName(db, ownerName);
  if (!owner) throw notFound();
  const name = repoName.endsWith('.git') ? repoName.slice(0, -4) : repoName;
  const repo = await getRepoByOwnerAndName(db, owner.id, name);
  if (!repo) {
    const redirectId = await getRedirect(db, owner.id, name);
    const target = redirectId ? await getRepoById(db, redirectId) : undefined;
    if (!target) throw notFound();
    const access = await accessOf(db, target, viewer);
    if (access.mode === ACCESS.none) throw notFound();
    return { redirectTo: { owner: access.owner.name, name: target.name } };
  }
  const mode = await accessMode(db, viewer, repo, owner);
  if (mode === ACCESS.none) throw notFound();
  return { repo, owner, mode };
}

export async function accessOf(db: DB, repo: Repository, viewer: User | null): Promise<RepoAccess> {
  const owner = await getUserById(db, repo.owner_id);
  if (!owner) throw notFound();
  return { repo, owner, mode: await accessMode(db, viewer, repo, owner) };
}

/** A repository by id, visible to the viewer, or 404. */
export async function getVisibleRepoById(db: DB, id: number, viewer: User | null): Promise<RepoAccess> {
  const repo = await getRepoById(db, id);
  if (!repo) throw notFound();
  const access = await accessOf(db, repo, viewer);
  if (access.mode === ACCESS.none) throw notFound();
  return access;
}

export type RepoWithParent = RepoAccess & { parent: RepoAccess | null };

/** Access and parent (for forks) of each row, for converting lists. */
export async function withAccess(db: DB, repos: Repository[], viewer: User | null): Promise<RepoWithParent[]> {
  const owners = new Map<number, User>();
  const ownerOf = async (id: number) => {
    let o = owners.get(id);
    if (!o) {
      o = await getUserById(db, id);
      if (o) owners.set(id, o);
    }
    return o!;
  };
  const out: RepoWithParent[] = [];
  for (const repo of repos) {
    const owner = await ownerOf(repo.owner_id);
    const mode = await accessMode(db, viewer, repo, owner);
    let parent: RepoAccess | null = null;
    if (repo.fork_id) {
      const p = await getRepoById(db, repo.fork_id);
      if (p) {
        const pOwner = await ownerOf(p.owner_id);
        const pMode = await accessMode(db, viewer, p, pOwner);
        if (pMode > ACCESS.none) parent = { repo: p, owner: pOwner, mode: pMode };
      }
    }
    out.push({ repo, owner, mode, parent });
  }
  return out;
}
