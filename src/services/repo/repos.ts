import type { DB } from '../../db/connect';
import type { Mirror, Repository, User } from '../../db/schema';
import { getMirrorByRepoId } from '../../models/mirror';
import { NotFoundError } from '../../lib/errors';
import { getRedirect, getRepoById, getRepoWithTransferFlag, getRepoWithViewerMarks } from '../../models/repo';
import { getOwnerAndRepo, getOwnerAndRepoForViewer, type RepoPathRows } from '../../models/repo-path';
import { repoPathOf, type HeldRepo, type RepoPath } from './repo-path';
import { searchRepos, type RepoSearch } from '../../models/repo-search';
import { getUserById } from '../../models/user';
import { getUserRedirect } from '../../models/user-redirect';
import { ACCESS, accessMode, ORG_TYPE, type AccessMode, type Grants, type Unit } from '../permissions';

export type RepoAccess = {
  repo: Repository; owner: User; mode: AccessMode;
  /** Unit modes computed for this request's caller (unitModeOf), so no service computes one twice. */
  unitModes?: Map<string, AccessMode>;
  /** The rows `mode` was computed from, for the unit modes of the same caller. */
  grants?: { viewerId: number; grants: Grants };
  /** A pull mirror's row, for the views of repositories that are mirrors (see mirrorOf). */
  mirror?: Mirror | null;
  /** Whether a transfer was pending when the guard read the row; unknown (undefined) otherwise. */
  transferPending?: boolean;
  /** Whether the viewer watches and stars it, when the lookup was asked to read that too (lookupRepo's `viewerMarks`). */
  viewerMarks?: { uid: number; watch: boolean; star: boolean };
};
export type RepoLookup = RepoAccess | { redirectTo: { owner: string; name: string } };

const notFound = () => new NotFoundError('The target couldn\'t be found.');

type Marks = { watch: boolean; star: boolean };
type LookupOptions = {
  /** A page's header shows whether a signed-in viewer watches and stars it: read with the repository. */
  viewerMarks?: boolean;
  /** The rows authentication read with the caller (req.ctx.heldRepo). */
  held?: HeldRepo | null;
};
type PathRows = Omit<RepoPathRows, 'repo'> & { repo: (NonNullable<RepoPathRows['repo']> & { marks?: Marks }) | undefined };

/** The owner's and the repository's rows: the held ones, the caller's own, or one read of both. */
async function pathRows(db: DB, path: RepoPath, viewer: User | null, opts: LookupOptions): Promise<PathRows> {
  const { held } = opts;
  if (held && held.path.owner === path.owner && held.path.name === path.name) return held.rows;
  const marks = viewer && opts.viewerMarks;
  // Callers often read their own repositories: the viewer's row, read by this request, is the owner's.
  if (viewer && viewer.lower_name === path.owner) {
    return { owner: viewer, repo: marks ? await getRepoWithViewerMarks(db, viewer.id, path.name, viewer.id) : await getRepoWithTransferFlag(db, viewer.id, path.name) };
  }
  // A page's viewer: the owner, the repository, the viewer's marks and collaboration at once.
  if (marks) return getOwnerAndRepoForViewer(db, viewer.id, path.owner, path.name);
  return getOwnerAndRepo(db, path.owner, path.name);
}

/**
 * Resolves `owner/name` for `viewer`: the repository with the caller's access mode, a redirect
 * after a rename, or 404 when missing or not visible to the caller. `viewerMarks`: a page's
 * header shows whether a signed-in viewer watches and stars it, read in the same statement.
 */
export async function lookupRepo(db: DB, ownerName: string, repoName: string, viewer: User | null, opts: LookupOptions = {}): Promise<RepoLookup> {
  const name = repoName.endsWith('.git') ? repoName.slice(0, -4) : repoName;
  const { owner, repo: found, collaborator } = await pathRows(db, repoPathOf(ownerName, repoName), viewer, opts);
  if (!owner) return renamedOwnerRepo(db, ownerName, name, viewer);
  if (!found) {
    const redirectId = await getRedirect(db, owner.id, name);
    const target = redirectId ? await getRepoById(db, redirectId) : undefined;
    if (!target) throw notFound();
    const access = await accessOf(db, target, viewer);
    if (access.mode === ACCESS.none) throw notFound();
    return { redirectTo: { owner: access.owner.name, name: target.name } };
  }
  const { repo, transferPending } = found;
  const grants: Grants = {};
  // The caller's collaboration, read with the rows (not under Sudo: the viewer is then someone else).
  if (viewer && collaborator?.userId === viewer.id) grants.collaborator = Promise.resolve(collaborator.mode);
  const mode = await accessMode(db, viewer, repo, owner, undefined, grants);
  if (mode === ACCESS.none) throw notFound();
  const viewerMarks = viewer && found.marks ? { uid: viewer.id, ...found.marks } : undefined;
  return { repo, owner, mode, transferPending, ...(viewerMarks ? { viewerMarks } : {}), ...(viewer ? { grants: { viewerId: viewer.id, grants } } : {}) };
}

/**
 * `oldOwner/name` after the owner was renamed (Gitea's user_redirect): a redirect to the
 * repository under its owner's new name, when the caller may see it; 404 otherwise.
 */
async function renamedOwnerRepo(db: DB, oldOwner: string, name: string, viewer: User | null): Promise<RepoLookup> {
  const ownerId = await getUserRedirect(db, oldOwner);
  const owner = ownerId ? await getUserById(db, ownerId) : undefined;
  if (!owner) throw notFound();
  const found = await lookupRepo(db, owner.name, name, viewer);
  return 'redirectTo' in found ? found : { redirectTo: { owner: owner.name, name: found.repo.name } };
}

export async function accessOf(db: DB, repo: Repository, viewer: User | null): Promise<RepoAccess> {
  const owner = await getUserById(db, repo.owner_id);
  if (!owner) throw notFound();
  return { repo, owner, mode: await accessMode(db, viewer, repo, owner), mirror: await mirrorOf(db, repo) };
}

/** The mirror row of a pull mirror; no query for other repositories. */
export async function mirrorOf(db: DB, repo: Repository): Promise<Mirror | null> {
  return repo.is_mirror ? ((await getMirrorByRepoId(db, repo.id)) ?? null) : null;
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
    out.push({ repo, owner, mode, parent: await parentOf(db, repo, viewer, ownerOf), mirror: await mirrorOf(db, repo) });
  }
  return out;
}

/** The repository a fork was made from, when the viewer may see it. */
export async function parentOf(
  db: DB, repo: Repository, viewer: User | null, ownerOf = async (id: number) => (await getUserById(db, id))!,
): Promise<RepoAccess | null> {
  if (!repo.fork_id) return null;
  const p = await getRepoById(db, repo.fork_id);
  if (!p) return null;
  const pOwner = await ownerOf(p.owner_id);
  if (!pOwner) return null;
  const pMode = await accessMode(db, viewer, p, pOwner);
  return pMode > ACCESS.none ? { repo: p, owner: pOwner, mode: pMode } : null;
}

/**
 * unitModeOf's answer when it needs no read (no team of an organization to ask, or asked
 * already in this request), else undefined: for callers asking of many units at once.
 */
export function knownUnitMode(access: RepoAccess, viewer: User | null, unit: Unit): AccessMode | undefined {
  if (!viewer || viewer.is_admin || access.mode >= ACCESS.admin || access.owner.type !== ORG_TYPE) return access.mode;
  return access.unitModes?.get(`${viewer.id}:${unit}`);
}

/**
 * The caller's mode on one unit of a repository whose access the request already holds: only
 * an organization's teams make it differ from the overall mode, and it is computed once per
 * request and caller (kept on the access object the guard made).
 */
export async function unitModeOf(db: DB, access: RepoAccess, viewer: User | null, unit: Unit): Promise<AccessMode> {
  const known = knownUnitMode(access, viewer, unit);
  if (known !== undefined || !viewer) return known ?? access.mode;
  const key = `${viewer.id}:${unit}`;
  if (access.grants?.viewerId !== viewer.id) access.grants = { viewerId: viewer.id, grants: {} };
  const mode = await accessMode(db, viewer, access.repo, access.owner, unit, access.grants.grants);
  (access.unitModes ??= new Map()).set(key, mode);
  return mode;
}

/** One page of the repositories `q.viewer` may see, ready for converting, and how many there are in all. */
export async function searchVisibleRepos(db: DB, q: RepoSearch): Promise<{ views: RepoWithParent[]; total: number }> {
  const { repos, total } = await searchRepos(db, q);
  return { views: await withAccess(db, repos, q.viewer), total };
}
