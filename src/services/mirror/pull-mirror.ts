import type { DB } from '../../db/connect';
import type { Mirror, Repository, User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { repoDir, zeroId } from '../../git/repo';
import { BadRequestError } from '../../lib/errors';
import { unseal } from '../../lib/secret-box';
import { nowUnix } from '../../lib/time';
import { dueMirrors, getMirrorByRepoId, updateMirror } from '../../models/mirror';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { parseDuration } from '../cron/duration';
import { enqueueJob, type JobQueue } from '../jobs/queue';
import { migrateLfs } from '../migrate/migrate-lfs';
import { checkRemote, migrationDispatcher, type CheckedRemote } from '../migrate/remote-address';
import { localRefs, MIRROR_REFSPECS, redact, remoteGit, type RemoteAuth } from '../migrate/remote-git';
import { refsMoved } from '../repo/refs-moved';
import { withRefsLock } from '../repo/refs-lock';
import type { RepoAccess } from '../repo/repos';
import { nextUpdateAt } from './pull-mirror-interval';
import { syncMirrorWiki } from '../migrate/migrate-wiki';
import type { Hearth } from '../../hearth';

// Pull mirrors follow their remote: a sync fetches branches, tags and notes (pruning what the
// remote deleted), then the database, feed and webhooks follow through refsMoved. Syncs run as
// durable jobs keyed by repository, so two syncs of one mirror never overlap.

export const PULL_MIRROR_JOB = 'mirror.pull';
/** The instance handle (the name stays for the callers that spell it). */
export type MirrorDeps = Hearth;

const jobKey = (repoId: number) => `mirror:${repoId}`;
const enqueueSync = (db: DB, repoId: number) => enqueueJob(db, { kind: PULL_MIRROR_JOB, key: jobKey(repoId), payload: { repoId } });

/** POST /repos/{owner}/{repo}/mirror-sync: queues a sync; 400 when not a mirror or mirrors are off. */
export async function requestMirrorSync(h: Hearth, access: RepoAccess): Promise<void> {
  if (!h.config.mirror.enabled) throw new BadRequestError('Mirror feature is disabled');
  if (!(await getMirrorByRepoId(h.db, access.repo.id))) throw new BadRequestError('Repository is not a mirror');
  await enqueueSync(h.db, access.repo.id);
}

function credentialsOf(secret: string, mirror: Mirror): RemoteAuth {
  if (!mirror.credentials_sealed) return { username: '', password: '' };
  const parsed = JSON.parse(unseal(secret, 'mirror', mirror.credentials_sealed)) as Partial<RemoteAuth>;
  return { username: parsed.username ?? '', password: parsed.password ?? '' };
}

/** What moved between two listings of refs, as a push would report it. */
function diffRefs(before: Map<string, string>, after: Map<string, string>, zero: string): RefUpdate[] {
  const updates: RefUpdate[] = [];
  for (const [ref, newId] of after) if (before.get(ref) !== newId) updates.push({ ref, oldId: before.get(ref) ?? zero, newId });
  for (const [ref, oldId] of before) if (!after.has(ref)) updates.push({ ref, oldId, newId: zero });
  return updates;
}

/** Fetches into the mirror (the address checked again: the rules may have changed) and syncs the rows. */
async function fetchAndSync(deps: MirrorDeps, repo: Repository, owner: User, mirror: Mirror, auth: RemoteAuth, lease?: AbortSignal): Promise<number> {
  const dir = repoDir(deps.config.repository.root, owner.name, repo.name);
  const checked = await checkRemote(deps.config, mirror.remote_address, owner);
  const timeout = AbortSignal.timeout(parseDuration(deps.config.migrations.timeout));
  const signal = lease ? AbortSignal.any([timeout, lease]) : timeout;
  const moved = await withRefsLock(repo.id, async () => {
    const prefixes = ['refs/heads/', 'refs/tags/', 'refs/notes/'];
    const before = await localRefs(dir, prefixes);
    const prune = mirror.enable_prune ? ['--prune'] : [];
    // Killed by a lost lease, git fetch has moved no ref (it writes them once the objects are
    // in): the other node's rerun fetches again and lists what moved against the refs as they
    // are. Only a kill in the instant of the ref writes leaves moves unannounced, as a crash there.
    // Its branch rows still follow: the rerun's refsMoved syncs them from git whatever the diff.
    await remoteGit(checked, auth, ['fetch', ...prune, '--no-write-fetch-head'], MIRROR_REFSPECS, { gitDir: dir, signal });
    lease?.throwIfAborted();
    const updates = diffRefs(before, await localRefs(dir, prefixes), zeroId(repo.object_format_name));
    // The doer of a mirror's ref moves is its owner, as Gitea's mirror sync actions.
    await refsMoved(deps.db, repo, owner, dir, updates, 'mirror');
    await syncMirrorWiki(deps.config, checked, auth, owner.name, repo, signal);
    return updates.length;
  });
  if (mirror.lfs && !checked.local) await syncMirrorLfs(deps, { repo, mirror, checked, auth, signal, dir });
  return moved;
}

type LfsSync = { repo: Repository; mirror: Mirror; checked: CheckedRemote; auth: RemoteAuth; signal: AbortSignal; dir: string };

/**
 * A mirror made with `lfs: true` fetches the LFS objects its refs point at and it lacks, after
 * each sync as at its migration (Gitea's StoreMissingLfsObjectsInRepository in its mirror
 * update). Outside the refs lock: pushes cannot reach a mirror, and downloads may be long. A
 * failure is logged; the refs synced stand and the next sync tries again.
 */
async function syncMirrorLfs(deps: MirrorDeps, s: LfsSync): Promise<void> {
  try {
    await migrateLfs({
      ...deps, dispatcher: migrationDispatcher(deps.config), signal: s.signal, repo: s.repo, gitDir: s.dir,
      address: s.checked.address, endpoint: s.mirror.lfs_endpoint || undefined, auth: s.auth,
    });
  } catch (err) {
    deps.log.warn({ repo: s.repo.id, error: redact(err instanceof Error ? err.message : String(err), s.auth) }, 'pull mirror: LFS objects not fetched');
  }
}

/**
 * One sync of the mirror of `repoId`; the outcome is recorded on the mirror row, never thrown,
 * but for `lease` aborting (the job's lease lost): then it stops, records nothing and throws.
 */
export async function syncPullMirror(deps: MirrorDeps, repoId: number, lease?: AbortSignal): Promise<void> {
  const [repo, mirror] = await Promise.all([getRepoById(deps.db, repoId), getMirrorByRepoId(deps.db, repoId)]);
  const owner = repo && (await getUserById(deps.db, repo.owner_id));
  if (!repo || !mirror || !owner) return;
  let auth: RemoteAuth = { username: '', password: '' };
  try {
    auth = credentialsOf(deps.secret, mirror);
    const moved = await fetchAndSync(deps, repo, owner, mirror, auth, lease);
    lease?.throwIfAborted();
    const now = nowUnix();
    await updateMirror(deps.db, repoId, { updated_unix: now, next_update_unix: nextUpdateAt(now, mirror.interval_seconds), last_error: '' });
    deps.log.info({ repo: `${owner.name}/${repo.name}`, moved }, 'pull mirror synced');
  } catch (err) {
    lease?.throwIfAborted();
    // A failing sync is tried again at the next interval.
    const text = redact(err instanceof Error ? err.message : String(err), auth);
    await updateMirror(deps.db, repoId, { next_update_unix: nextUpdateAt(nowUnix(), mirror.interval_seconds), last_error: text });
    deps.log.warn({ repo: `${owner.name}/${repo.name}`, error: text }, 'pull mirror sync failed');
  }
}

/**
 * Queues a sync of every mirror whose next update has passed (at most `limit`; <= 0: all), for
 * the update_mirrors cron task. The next update moves on now, so the next run does not queue
 * them again while they wait.
 */
export async function syncDuePullMirrors(
  h: Hearth, limit: number, now = nowUnix(),
): Promise<string> {
  if (!h.config.mirror.enabled) return 'mirrors are disabled';
  const due = await dueMirrors(h.db, now, limit);
  for (const m of due) {
    await h.db.transaction().execute(async (trx) => {
      await updateMirror(trx, m.repo_id, { next_update_unix: nextUpdateAt(now, m.interval_seconds) });
      await enqueueSync(trx, m.repo_id);
    });
  }
  if (due.length) h.log.info({ mirrors: due.length }, 'pull mirror syncs queued');
  return `queued ${due.length} pull mirror sync${due.length === 1 ? '' : 's'}`;
}

/** The job kind that runs the syncs (registered with the other background work). */
export function registerPullMirrorJobs(jobs: JobQueue, deps: MirrorDeps): void {
  jobs.register(PULL_MIRROR_JOB, { backoff: () => 60, handler: async ({ repoId }, ctx) => syncPullMirror(deps, repoId, ctx.signal) });
}
