import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../db/connect';
import { precompiled } from '../db/precompiled';
import type { NewRepository, Repository, RepositoryUpdate } from '../db/schema';

export async function getRepoById(db: DB, id: number): Promise<Repository | undefined> {
  return db.selectFrom('repository').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getRepoByOwnerAndName(db: DB, ownerId: number, name: string): Promise<Repository | undefined> {
  return db.selectFrom('repository').selectAll()
    .where('owner_id', '=', ownerId).where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
}

// Probes beside a repository read, by a reference to the repository's id column (`repository.id`,
// or a join's alias): the pending transfer (repo_transfer's unique repo_id) and a user's watch and
// star (the marks' primary keys). Shared by the reads here and the fused ones of repo-path.ts.
/* eslint-disable-next-line @typescript-eslint/no-explicit-any */
type AnyEb = ExpressionBuilder<any, any>;
export const transferPendingProbe = (eb: AnyEb, repoId: string) =>
  eb.exists(eb.selectFrom('repo_transfer').select('repo_transfer.repo_id').whereRef('repo_transfer.repo_id', '=', repoId));
export const watchProbe = (eb: AnyEb, uid: number, repoId: string) =>
  eb.exists(eb.selectFrom('watch').select('watch.uid').where('watch.uid', '=', uid).whereRef('watch.repo_id', '=', repoId));
export const starProbe = (eb: AnyEb, uid: number, repoId: string) =>
  eb.exists(eb.selectFrom('star').select('star.uid').where('star.uid', '=', uid).whereRef('star.repo_id', '=', repoId));

// Compiled once: every request on a repository's path runs it (Kysely's build and compile was
// more CPU than SQLite's run of it).
const repoWithTransferFlag = precompiled(2, (db: DB, ownerId: number, lowerName: string) => db.selectFrom('repository').selectAll('repository')
  .select((eb) => transferPendingProbe(eb, 'repository.id').as('transfer_pending'))
  .where('repository.owner_id', '=', ownerId).where('repository.lower_name', '=', lowerName));

/**
 * The repository by owner and name with whether a transfer of it is pending, in one statement
 * (a probe of repo_transfer's unique repo_id index): the repository guard reads it, and
 * GET /repos/{owner}/{repo} then reads the transfer only when there is one.
 */
export async function getRepoWithTransferFlag(
  db: DB, ownerId: number, name: string,
): Promise<{ repo: Repository; transferPending: boolean } | undefined> {
  const [row] = await repoWithTransferFlag(db, ownerId, name.toLowerCase());
  if (!row) return undefined;
  // SQLite answers EXISTS with 0/1, PostgreSQL with a boolean.
  const { transfer_pending: pending, ...repo } = row;
  return { repo, transferPending: Boolean(pending) };
}

// The same read for a signed-in visitor's page, with the header's watch and star state of that
// visitor: two probes of the marks' primary keys in the statement the page runs anyway.
const repoWithViewerMarks = precompiled(3, (db: DB, ownerId: number, lowerName: string, uid: number) => db.selectFrom('repository').selectAll('repository')
  .select((eb) => [
    transferPendingProbe(eb, 'repository.id').as('transfer_pending'),
    watchProbe(eb, uid, 'repository.id').as('viewer_watch'),
    starProbe(eb, uid, 'repository.id').as('viewer_star'),
  ])
  .where('repository.owner_id', '=', ownerId).where('repository.lower_name', '=', lowerName));

/** getRepoWithTransferFlag, with whether the user `uid` watches and stars the repository. */
export async function getRepoWithViewerMarks(
  db: DB, ownerId: number, name: string, uid: number,
): Promise<{ repo: Repository; transferPending: boolean; marks: { watch: boolean; star: boolean } } | undefined> {
  const [row] = await repoWithViewerMarks(db, ownerId, name.toLowerCase(), uid);
  if (!row) return undefined;
  const { transfer_pending: pending, viewer_watch: watch, viewer_star: star, ...repo } = row;
  return { repo, transferPending: Boolean(pending), marks: { watch: Boolean(watch), star: Boolean(star) } };
}

export async function getRedirect(db: DB, ownerId: number, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('repo_redirect').select('redirect_repo_id')
    .where('owner_id', '=', ownerId).where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
  return row?.redirect_repo_id;
}

export async function setRedirect(db: DB, ownerId: number, lowerName: string, repoId: number): Promise<void> {
  await db.deleteFrom('repo_redirect').where('owner_id', '=', ownerId).where('lower_name', '=', lowerName).execute();
  await db.insertInto('repo_redirect').values({ owner_id: ownerId, lower_name: lowerName, redirect_repo_id: repoId }).execute();
}

export async function deleteRedirect(db: DB, ownerId: number, lowerName: string): Promise<void> {
  await db.deleteFrom('repo_redirect').where('owner_id', '=', ownerId).where('lower_name', '=', lowerName).execute();
}

/** Before a repository goes: its forks become plain repositories, as Gitea's DeleteRepository. */
export async function detachForks(db: DB, repoId: number): Promise<void> {
  await db.updateTable('repository').set({ fork_id: null, is_fork: 0 }).where('fork_id', '=', repoId).execute();
}

/** Every old name that redirects to the repository. */
export async function deleteRedirectsTo(db: DB, repoId: number): Promise<void> {
  await db.deleteFrom('repo_redirect').where('redirect_repo_id', '=', repoId).execute();
}

export async function insertRepo(db: DB, row: NewRepository): Promise<Repository> {
  return db.insertInto('repository').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRepo(db: DB, id: number, patch: RepositoryUpdate): Promise<void> {
  await db.updateTable('repository').set(patch).where('id', '=', id).execute();
}

export async function deleteRepoRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('repository').where('id', '=', id).execute();
}

export async function countReposOfOwner(db: DB, ownerId: number): Promise<number> {
  const r = await db.selectFrom('repository').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Adds `delta` to a counter column; used for stars, watches, forks. */
export async function bumpCounter(
  db: DB, id: number, column: 'num_stars' | 'num_watches' | 'num_forks' | 'num_releases', delta: number,
): Promise<void> {
  await db.updateTable('repository').set({ [column]: sql`${sql.ref(column)} + ${delta}` }).where('id', '=', id).execute();
}

export async function getCollaboratorMode(db: DB, repoId: number, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom('collaboration').select('mode')
    .where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  return row?.mode;
}

/** Follows an owner's rename: the cached owner_name of each of its repositories. */
export async function setOwnerNameOfRepos(db: DB, ownerId: number, ownerName: string): Promise<void> {
  await db.updateTable('repository').set({ owner_name: ownerName }).where('owner_id', '=', ownerId).execute();
}

export async function listReposOfOwner(db: DB, ownerId: number): Promise<Repository[]> {
  return db.selectFrom('repository').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
}
