import { AsyncLocalStorage } from 'node:async_hooks';
import { backgroundError } from '../../lib/background-log';
import { whenAllFree, whenFree, withKeyLock } from '../../lib/keyed-lock';

// What a push, an API commit or a merge does to the repository's other pull requests (re-test
// each, stale reviews, scheduled and manual merges) takes ~20 ms a pull request: with 50 open it
// held a `git push` for over a second. It runs after the answer instead, queued per repository,
// and API calls on the repository wait for the queue first, so what they read follows the push.
// Scheduled merges that a status or a review may complete queue here too (as Gitea's queue).

const inFollowUp = new AsyncLocalStorage<true>();
const lockKey = (repoId: number) => `follow-up:${repoId}`;

/** Follow-ups queued but not started, by repository and kind: the queued one will see the newest state. */
const waiting = new Set<string>();

/**
 * Runs `task` after the repository's earlier follow-ups, without making the caller wait; a
 * second task of the same kind while one still waits to start is dropped (pushes in a burst
 * re-test once).
 */
export function queueFollowUp(repoId: number, kind: string, task: () => Promise<void>): void {
  const key = `${repoId}:${kind}`;
  if (waiting.has(key)) return;
  waiting.add(key);
  withKeyLock(lockKey(repoId), () => {
    waiting.delete(key);
    return inFollowUp.run(true, task);
  }).catch((err: unknown) => backgroundError({ err, repo: repoId }, 'updating pull requests after a push failed'));
}

/** Waits for the repository's queued follow-ups (at once from inside one: it would wait on itself). */
export async function followUpsSettled(repoId: number): Promise<void> {
  if (inFollowUp.getStore()) return;
  await whenFree(lockKey(repoId));
}

/** Every queued follow-up, for a clean shutdown. */
export const allFollowUpsSettled = (): Promise<void> => whenAllFree('follow-up:');
