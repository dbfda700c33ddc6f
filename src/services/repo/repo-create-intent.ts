import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { removeRepoDir, repoExists } from '../../git/repo';
import { crashPoint } from '../../lib/crash-point';
import { ConflictError } from '../../lib/errors';
import { withKeyLock } from '../../lib/keyed-lock';
import { clearIntent, recordIntent } from '../recovery/intent';

// A new repository (created, forked, generated) is made on disk first and then given its row,
// under a 'repo.create' intent, so that a crash cannot leave a directory nobody owns. The intent
// has two steps: 'files' (the directory may exist, the row does not) until the transaction that
// inserts the row, which swaps it for 'sync' (the row exists, the database may not yet show what
// git has) in the same commit; the service clears that once it has synced. The recovery
// (recovery/repo-create-recovery.ts) removes the directory of a 'files' intent, or finishes the
// sync of a 'sync' one: each step says exactly which of the two the crash interrupted.

/** Before the row: the directory alone (nobody has seen it). */
export type CreateFilesIntent = { step: 'files'; ownerId: number; ownerName: string; name: string; dir: string };
/** After the row: what remains is the sync from git and the event. */
export type CreateSyncIntent = { step: 'sync'; repoId: number; doerId: number; forkOf: number | null };
export type RepoCreateIntent = CreateFilesIntent | CreateSyncIntent;

export type NewRepoDir = {
  /** Crash points are named after it: `<area>.before-commit`, `<area>.after-commit`. */
  area: 'repo-create' | 'repo-fork' | 'repo-generate';
  ownerId: number; ownerName: string; name: string; dir: string; doerId: number; forkOf?: number;
};

/**
 * Makes the files (`makeFiles`, git only) and then the row (`insertRow`, in one transaction with
 * the intent's switch to 'sync'). On an ordinary failure the directory is removed and the intent
 * cleared. Returns the row and the 'sync' intent, to be cleared by `finishNewRepo`.
 */
export function createRepoFilesFirst(
  db: DB, target: NewRepoDir, makeFiles: () => Promise<void>, insertRow: (trx: DB) => Promise<Repository>,
): Promise<{ repo: Repository; intent: number }> {
  // One maker per directory at a time: the existence check and the making are one step for
  // this process (the only one serving the data directory), as they were in one transaction.
  return withKeyLock(`new-repo:${target.dir}`, async () => {
    if (repoExists(target.dir)) throw new ConflictError(`repository files already exist [${target.ownerName}/${target.name}]`);
    const files: CreateFilesIntent = { step: 'files', ownerId: target.ownerId, ownerName: target.ownerName, name: target.name, dir: target.dir };
    const intent = await recordIntent(db, 'repo.create', files);
    try {
      await makeFiles();
      crashPoint(`${target.area}.before-commit`);
      return await db.transaction().execute(async (trx) => {
        const repo = await insertRow(trx);
        await clearIntent(trx, intent);
        const sync: CreateSyncIntent = { step: 'sync', repoId: repo.id, doerId: target.doerId, forkOf: target.forkOf ?? null };
        return { repo, intent: await recordIntent(trx, 'repo.create', sync, db) };
      });
    } catch (err) {
      // The row was rolled back (or never inserted): the files go with it.
      removeRepoDir(target.dir);
      await clearIntent(db, intent);
      throw err;
    }
  });
}

/** The row committed: `sync` brings the database in line with git, then the intent goes. */
export async function finishNewRepo<T>(db: DB, area: NewRepoDir['area'], intent: number, sync: () => Promise<T>): Promise<T> {
  crashPoint(`${area}.after-commit`);
  const result = await sync();
  // Cleared before the event is emitted: a crash in between loses the event rather than
  // sending it twice (as for any other change, events follow the commit at most once).
  await clearIntent(db, intent);
  return result;
}
