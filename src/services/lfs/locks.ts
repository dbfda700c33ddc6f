import path from 'node:path';
import type { DB } from '../../db/connect';
import type { LfsLock, User } from '../../db/schema';
import { AppError, BadRequestError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import * as lfs from '../../models/lfs';
import { usersByIds } from '../../models/user-lookup';
import { ACCESS } from '../permissions';
import type { RepoAccess } from '../repo/repos';

// The git-lfs locks API, as Gitea's services/lfs/locks.go: one lock per path (compared without
// case), listed to readers, taken and released by writers; another user's lock only goes with
// `force`, which hearth keeps to the repository's admins.

export type LockWithOwner = { lock: LfsLock; owner: User | undefined };

/** A conflicting lock: 409 with the lock that is there. */
export class LockExistsError extends AppError {
  constructor(readonly existing: LockWithOwner) { super(409, 'already created lock'); }
}

/** Gitea's util.PathJoinRel: a clean relative path, never above the root. */
export function cleanLockPath(raw: string): string {
  return path.posix.normalize(`/${raw.replace(/\\/g, '/')}`).replace(/^\/+/, '').replace(/\/+$/, '');
}

async function withOwners(db: DB, locks: LfsLock[]): Promise<LockWithOwner[]> {
  const users = new Map((await usersByIds(db, [...new Set(locks.map((l) => l.owner_id))])).map((u) => [u.id, u]));
  return locks.map((lock) => ({ lock, owner: users.get(lock.owner_id) }));
}

export type LockQuery = { id?: string; path?: string; cursor: number; limit: number };

/** GET /locks: by id, by path, or a page (cursor counts pages of `limit`); next cursor when full. */
export async function listLocks(db: DB, access: RepoAccess, q: LockQuery): Promise<{ locks: LockWithOwner[]; next: string }> {
  if (q.id !== undefined && q.id !== '') {
    if (!/^\d+$/.test(q.id)) throw new BadRequestError(`bad request : strconv.ParseInt: parsing "${q.id}": invalid syntax`);
    const lock = await lfs.lockById(db, Number(q.id));
    return { locks: lock && lock.repo_id === access.repo.id ? await withOwners(db, [lock]) : [], next: '' };
  }
  if (q.path) {
    const lock = await lfs.lockByPath(db, access.repo.id, cleanLockPath(q.path).toLowerCase());
    return { locks: lock ? await withOwners(db, [lock]) : [], next: '' };
  }
  const locks = await lfs.locksOf(db, access.repo.id, q.cursor * q.limit, q.limit);
  return { locks: await withOwners(db, locks), next: q.limit > 0 && locks.length === q.limit ? String(q.cursor + 1) : '' };
}

/** POST /locks/verify: the page split into the caller's locks and everyone else's. */
export async function verifyLocks(db: DB, access: RepoAccess, doer: User, q: LockQuery) {
  const { locks, next } = await listLocks(db, access, { cursor: q.cursor, limit: q.limit });
  return { ours: locks.filter((l) => l.lock.owner_id === doer.id), theirs: locks.filter((l) => l.lock.owner_id !== doer.id), next };
}

/** POST /locks: 409 with the existing lock when the path is locked already. */
export async function createLock(db: DB, access: RepoAccess, doer: User, rawPath: string): Promise<LockWithOwner> {
  const clean = cleanLockPath(rawPath);
  if (!clean) throw new BadRequestError('Bad Request');
  return db.transaction().execute(async (trx) => {
    const existing = await lfs.lockByPath(trx, access.repo.id, clean.toLowerCase());
    if (existing) throw new LockExistsError((await withOwners(trx, [existing]))[0]!);
    const lock = await lfs.insertLock(trx, { repoId: access.repo.id, ownerId: doer.id, path: clean, now: nowUnix() });
    return { lock, owner: doer };
  });
}

/** POST /locks/{id}/unlock: the owner's own lock, or anyone's with force by a repository admin. */
export async function unlock(db: DB, access: RepoAccess, doer: User, id: number, force: boolean): Promise<LockWithOwner> {
  const lock = await lfs.lockById(db, id);
  if (!lock || lock.repo_id !== access.repo.id) throw new NotFoundError('unable to delete lock : lfs lock does not exist');
  if (lock.owner_id !== doer.id) {
    if (!force) throw new ForbiddenError('You must have push access to delete locks : user doesn\'t own lock and force flag is not set');
    if (access.mode < ACCESS.admin && !doer.is_admin) throw new ForbiddenError('You must be an administrator of the repository to force unlock another user\'s lock');
  }
  await lfs.deleteLock(db, lock.id);
  return (await withOwners(db, [lock]))[0]!;
}
