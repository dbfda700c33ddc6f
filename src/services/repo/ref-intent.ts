import fs from 'node:fs';
import type { DB } from '../../db/connect';
import type { RefUpdate } from '../../git/hooks';
import { repoDir } from '../../git/repo';
import { crashPoint } from '../../lib/crash-point';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { clearIntent, recordIntent } from '../recovery/intent';
import type { Repository, User } from '../../db/schema';
import { isAncestor, landedPushes, refTarget } from '../../git/refs';
import type { RefSource } from '../events/types';
import { refsMoved } from './refs-moved';
import type { Hearth } from '../../hearth';

// A push moves the refs in git (receive-pack, after the pre-receive verdict) before the database
// follows and refs.moved goes out. Killed in between, the push had landed but its events never
// came (no webhook, no feed, no pull request update), and git told the pusher it failed, so a
// second push found nothing to send. The accepted push is now an intent: the next start syncs
// and emits for what landed. API commits and branches created through the API do the same.

type PushPayload = { repoId: number; doerId: number; updates: RefUpdate[]; source?: RefSource };

/** Records an accepted push before git is told to go on. */
export function recordAcceptedPush(db: DB, repoId: number, doerId: number, updates: RefUpdate[]): Promise<number> {
  return recordIntent(db, 'push', { repoId, doerId, updates } satisfies PushPayload);
}

/** The push ended: the database follows what landed, then the intent goes. */
export async function finishPush(db: DB, intent: number | null, sync: () => Promise<unknown>): Promise<void> {
  crashPoint('push.before-sync');
  try {
    await sync();
  } finally {
    if (intent !== null) await clearIntent(db, intent);
  }
}

/**
 * One ref moved through the API (a commit, a new branch), crash-safe as a push: the intent, the
 * move (false: refused, nothing happened), the database sync and refs.moved, the intent gone.
 */
export async function moveRefDurably(
  db: DB, repo: Repository, doer: User, dir: string, update: RefUpdate, source: RefSource, move: () => Promise<boolean>,
): Promise<boolean> {
  const intent = await recordIntent(db, 'push', { repoId: repo.id, doerId: doer.id, updates: [update], source } satisfies PushPayload);
  try {
    if (!(await move())) return false;
    crashPoint('refs.after-move');
    await refsMoved(db, repo, doer, dir, [update], source);
    return true;
  } finally {
    await clearIntent(db, intent);
  }
}

/** Recovery of a push (or API ref move) a crash interrupted: the refs that landed are synced and announced. */
export async function recoverPush(h: Hearth, p: PushPayload): Promise<string> {
  const repo = await getRepoById(h.db, p.repoId);
  if (!repo) return 'the repository is gone';
  const dir = repoDir(h.config.repository.root, repo.owner_name, repo.name);
  if (!fs.existsSync(dir)) return 'the repository directory is gone';
  const doer = (await getUserById(h.db, p.doerId)) ?? (await getUserById(h.db, repo.owner_id));
  if (!doer) return 'no user to attribute the push to';
  const landed = p.source === 'commit' ? await landedCommits(dir, p.updates) : await landedPushes(dir, p.updates);
  await refsMoved(h.db, repo, doer, dir, landed, p.source ?? 'push');
  return `synced ${landed.length} of ${p.updates.length} ref update(s) of ${repo.owner_name}/${repo.name}`;
}

/**
 * An API commit landed if its branch holds it, at the tip or under commits made on top since
 * (another node went on): the commit was written for this move alone, so nothing else can have
 * put it there. Only the tip would count it lost, and its push never announced.
 */
async function landedCommits(dir: string, updates: RefUpdate[]): Promise<RefUpdate[]> {
  const tips = await Promise.all(updates.map((u) => refTarget(dir, u.ref)));
  const held = await Promise.all(updates.map(async (u, i) => {
    const tip = tips[i];
    return !!tip && (tip === u.newId || (await isAncestor(dir, u.newId, tip).catch(() => false)));
  }));
  return updates.filter((_, i) => held[i]);
}
