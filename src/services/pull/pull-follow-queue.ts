import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import type { DB } from '../../db/connect';
import { hasPendingJob, unfinishedJobIds } from '../../models/job';
import { enqueueJob } from '../jobs/queue';

// What a push, an API commit or a merge does to the repository's other pull requests (re-test
// each, stale reviews, scheduled and manual merges) takes ~20 ms a pull request: with 50 open it
// held a `git push` for over a second. It runs after the answer instead, as a durable job keyed
// per repository (one repository's follow-ups run one at a time, in order, and survive a crash
// or a stop), and API calls on the repository wait for the follow-ups this process queued first,
// so what they read follows the push.

export const FOLLOW_UP_JOB = 'pull.follow-up';
export type FollowUpJob = { repoId: number; pusherId: number };

const inFollowUp = new AsyncLocalStorage<true>();
const keyOf = (repoId: number) => `follow-up:${repoId}`;
/** How often a wait asks the database, should another node run the job (no local end to hear). */
const POLL_MS = 100;

/** The follow-up jobs this process queued and has not seen end, by server (its database handle) and repository. */
const servers = new WeakMap<DB, Map<number, Set<number>>>();
function queuedOf(db: DB): Map<number, Set<number>> {
  let m = servers.get(db);
  if (!m) servers.set(db, (m = new Map()));
  return m;
}
const ended = new EventEmitter();
ended.setMaxListeners(0);

/**
 * Queues the repository's follow-up after its earlier ones, without making the caller wait; one
 * already waiting to start is enough (it reads the newest state: pushes in a burst re-test once).
 */
export async function queueFollowUp(db: DB, payload: FollowUpJob): Promise<void> {
  const key = keyOf(payload.repoId);
  if (await hasPendingJob(db, key)) return;
  const id = await enqueueJob(db, { kind: FOLLOW_UP_JOB, key, payload });
  const queued = queuedOf(db);
  const ids = queued.get(payload.repoId) ?? new Set<number>();
  ids.add(id);
  queued.set(payload.repoId, ids);
}

/** Runs a follow-up job's work: the waits inside it do not wait on itself. */
export async function runFollowUp(db: DB, repoId: number, jobId: number, task: () => Promise<void>): Promise<void> {
  try {
    await inFollowUp.run(true, task);
  } finally {
    forget(db, repoId, jobId);
  }
}

function forget(db: DB, repoId: number, jobId: number): void {
  const queued = queuedOf(db);
  const ids = queued.get(repoId);
  if (!ids?.delete(jobId)) return;
  if (!ids.size) queued.delete(repoId);
  ended.emit('end');
}

/** Whether followUpsSettled would wait at all: a page checks before it awaits (no promise on every request). */
export const followUpsPending = (db: DB, repoId: number): boolean => !inFollowUp.getStore() && queuedOf(db).has(repoId);

/**
 * Waits for the follow-ups this process queued on the repository (at once from inside one: it
 * would wait on itself). No statement unless one is queued: reads right after a push pay, others not.
 */
export async function followUpsSettled(db: DB, repoId: number): Promise<void> {
  if (inFollowUp.getStore()) return;
  const queued = queuedOf(db);
  while (queued.has(repoId)) {
    const ids = [...queued.get(repoId)!];
    const open = new Set(await unfinishedJobIds(db, ids));
    for (const id of ids) if (!open.has(id)) forget(db, repoId, id);
    if (!queued.has(repoId)) return;
    await new Promise<void>((resolve) => {
      const done = () => { clearTimeout(timer); resolve(); };
      const timer = setTimeout(() => { ended.off('end', done); resolve(); }, POLL_MS);
      ended.once('end', done);
    });
  }
}

/** Every follow-up this process queued, for a clean shutdown (the job queue still runs). */
export async function allFollowUpsSettled(db: DB): Promise<void> {
  const queued = queuedOf(db);
  while (queued.size) await Promise.all([...queued.keys()].map((repoId) => followUpsSettled(db, repoId)));
}
