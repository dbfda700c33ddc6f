import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isBlockedBy } from '../../models/blocking';
import { bumpCounter } from '../../models/repo';
import { searchRepos, type RepoSearch } from '../../models/repo-search';
import * as marks from '../../models/stars';
import type { RepoAccess, RepoWithParent } from './repos';
import { withAccess } from './repos';
import { emit } from '../events/bus';

type Page = { offset: number; limit: number };

/** Gitea's reqStarsEnabled: with stars disabled every star route answers 403. */
export function assertStarsEnabled(config: Config): void {
  if (config.repository.disable_stars) throw new ForbiddenError('stars are disabled');
}

/** Watches or unwatches without a transaction of its own; keeps num_watches in step. */
export async function markWatch(db: DB, uid: number, repoId: number, on: boolean): Promise<void> {
  const changed = on ? await marks.insertMark(db, 'watch', uid, repoId, nowUnix()) : await marks.deleteMark(db, 'watch', uid, repoId);
  if (changed) await bumpCounter(db, repoId, 'num_watches', on ? 1 : -1);
}

async function assertNotBlocked(db: DB, doer: User, access: RepoAccess): Promise<void> {
  if (await isBlockedBy(db, doer.id, [access.owner.id])) throw new ForbiddenError('user is blocked by the repository owner');
}

/** PUT/DELETE /user/starred/{owner}/{repo}; the repository's and the user's counts move together. */
export async function setStar(db: DB, doer: User, access: RepoAccess, on: boolean): Promise<void> {
  if (on) await assertNotBlocked(db, doer, access);
  const changed = await db.transaction().execute(async (trx) => {
    const repoId = access.repo.id;
    const done = on ? await marks.insertMark(trx, 'star', doer.id, repoId, nowUnix()) : await marks.deleteMark(trx, 'star', doer.id, repoId);
    if (!done) return false;
    await bumpCounter(trx, repoId, 'num_stars', on ? 1 : -1);
    await marks.bumpUserStars(trx, doer.id, on ? 1 : -1);
    return true;
  });
  if (changed) await emit(db, 'repo.starred', { repo: access.repo, doer, starred: on });
}

export async function isStarring(db: DB, doer: User, access: RepoAccess): Promise<boolean> {
  return !!(await marks.getMark(db, 'star', doer.id, access.repo.id));
}

/** PUT /repos/{owner}/{repo}/subscription; returns when the caller started watching. */
export async function subscribe(db: DB, doer: User, access: RepoAccess): Promise<number> {
  await assertNotBlocked(db, doer, access);
  return db.transaction().execute(async (trx) => {
    await markWatch(trx, doer.id, access.repo.id, true);
    return (await marks.getMark(trx, 'watch', doer.id, access.repo.id))!.created_unix;
  });
}

/** DELETE /repos/{owner}/{repo}/subscription. */
export async function unsubscribe(db: DB, doer: User, access: RepoAccess): Promise<void> {
  await db.transaction().execute((trx) => markWatch(trx, doer.id, access.repo.id, false));
}

export async function isWatchingRepo(db: DB, doer: User, access: RepoAccess): Promise<boolean> {
  return !!(await marks.getMark(db, 'watch', doer.id, access.repo.id));
}

/**
 * Whether the caller watches and stars the repository (the repository header's buttons), and
 * whether a transfer of it is pending (then the page asks whether the caller may answer it).
 */
export async function socialStateOf(db: DB, doer: User, access: RepoAccess): Promise<SocialState> {
  const known = knownSocialState(doer, access);
  if (known) return known;
  const { watch, star, transfer } = await marks.marksOf(db, doer.id, access.repo.id);
  return { watching: watch, starred: star, transferPending: transfer };
}

export type SocialState = { watching: boolean; starred: boolean; transferPending: boolean };

/** socialStateOf when the page's repository read said all three already (lookupRepo's viewerMarks): no statement, no wait. */
export function knownSocialState(doer: User, access: RepoAccess): SocialState | undefined {
  const known = access.viewerMarks;
  if (known?.uid !== doer.id || access.transferPending === undefined) return undefined;
  return { watching: known.watch, starred: known.star, transferPending: access.transferPending };
}

/** When the caller started watching, or 404 when they do not. */
export async function watchSince(db: DB, doer: User, access: RepoAccess): Promise<number> {
  const row = await marks.getMark(db, 'watch', doer.id, access.repo.id);
  if (!row) throw new NotFoundError();
  return row.created_unix;
}

export async function listMarkers(db: DB, kind: marks.Mark, access: RepoAccess, page: Page): Promise<{ users: User[]; total: number }> {
  const [users, total] = await Promise.all([
    marks.listMarkers(db, kind, access.repo.id, page.offset, page.limit),
    marks.countMarkers(db, kind, access.repo.id),
  ]);
  return { users, total };
}

export type MarkedRepos = { repos: RepoWithParent[]; total: number };

/**
 * Repositories `user` starred or watches, as far as `viewer` may see them: another user's list
 * shows public repositories only, as Gitea's.
 */
export async function reposMarkedBy(
  db: DB, kind: marks.Mark, user: User, viewer: User | null, page: Page, publicOnly: boolean,
): Promise<MarkedRepos> {
  const self = !!viewer && viewer.id === user.id;
  const q: RepoSearch = {
    viewer, publicOnly, sort: 'id', order: 'asc', offset: page.offset, limit: page.limit,
    ...(kind === 'star' ? { starredBy: user.id } : { watchedBy: user.id }),
    ...(self ? {} : { isPrivate: false }),
  };
  const { repos, total } = await searchRepos(db, q);
  return { repos: await withAccess(db, repos, viewer), total };
}
