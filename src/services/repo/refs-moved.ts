import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { landedPushes } from '../../git/refs';
import { emit } from '../events/bus';
import type { RefSource } from '../events/types';
import { syncReleasesAfterPush } from '../release/release-sync';
import { syncRepoFromGit } from './repo-sync';

// The one function for "refs moved": a push over git, a commit through the contents API, a
// merge, a branch or tag created, renamed or deleted through the API, a pull request updated,
// later a mirror sync. The database follows git (branch rows, emptiness, default branch, size,
// releases of moved tags), then one event tells the subscribers: the feed, pull request
// follow-ups, webhooks, mirrors, Actions.

/**
 * After `updates` landed in `dir`: syncs the database and emits `refs.moved`. `repo` may carry
 * a default branch the move changed (a renamed default branch). Returns the fresh row.
 */
export async function refsMoved(
  db: DB, repo: Repository, doer: User, dir: string, updates: RefUpdate[], source: RefSource,
): Promise<Repository> {
  const fresh = await syncRepoFromGit(db, repo, dir, doer.id);
  // A push lists what was asked; git may have refused some after the hook saw them, and a move
  // by another node (no refs lock for git pushes) may already have gone on from the rest.
  const moved = source === 'push' ? await landedPushes(dir, updates) : updates;
  if (moved.some((u) => u.ref.startsWith('refs/tags/'))) await syncReleasesAfterPush(db, repo.id, dir, moved);
  if (moved.length) await emit(db, 'refs.moved', { repo: fresh, doer, dir, updates: moved, source });
  return fresh;
}
