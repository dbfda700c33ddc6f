import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { PushMirror, User } from '../../db/schema';
import { gitRun } from '../../git/exec';
import { repoDir } from '../../git/repo';
import { AppError } from '../../lib/errors';
import { unseal } from '../../lib/secret-box';
import { nowUnix } from '../../lib/time';
import { hasPendingJob } from '../../models/job';
import { duePushMirrorIds, getPushMirrorById, pushMirrorIdsOfRepo, recordPushMirrorSync } from '../../models/push-mirror';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { enqueueJob, type JobContext } from '../jobs/queue';
import { checkRemote, gitCredentials } from '../migrate/remote-address';
import type { Hearth } from '../../hearth';

// Pushing to the push mirrors (Gitea's services/mirror/mirror_push.go): each push is a durable
// job keyed by the mirror, so two pushes to one remote never overlap, and a push waiting to run
// already carries every change made before it starts (a second one is not queued). The address
// is checked again at each push ([migrations] may have changed, the name may resolve elsewhere);
// the credentials reach git only through its environment.

export const PUSH_MIRROR_JOB = 'mirror.push';
/** The secret-box purpose of the sealed credentials. */
export const PUSH_MIRROR_PURPOSE = 'push-mirror';

export type PushMirrorJob = { pushMirrorId: number };
type Credentials = { username: string; password: string };

const keyOf = (id: number) => `push-mirror:${id}`;
const STALL_SECONDS = 300;

/** Queues a push of the mirror unless one already waits; true when one was queued. */
export async function enqueuePushMirrorSync(db: DB, pushMirrorId: number): Promise<boolean> {
  const key = keyOf(pushMirrorId);
  if (await hasPendingJob(db, key)) return false;
  const payload: PushMirrorJob = { pushMirrorId };
  await enqueueJob(db, { kind: PUSH_MIRROR_JOB, key, payload });
  return true;
}

/**
 * Queues the push mirrors whose interval has passed since their last push (interval 0: never),
 * at most `limit` of them (<= 0: all): the push half of Gitea's update_mirrors task.
 */
export async function syncDuePushMirrors(db: DB, limit: number): Promise<string> {
  const due = await duePushMirrorIds(db, nowUnix(), limit);
  let queued = 0;
  for (const id of due) if (await enqueuePushMirrorSync(db, id)) queued++;
  return `${due.length} push mirror(s) due, ${queued} queued`;
}

/** Error text without the password, neither as given nor URL-encoded, nor any URL's user part. */
export function scrubCredentials(text: string, creds: Credentials): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
  if (creds.password) {
    for (const form of new Set([creds.password, encodeURIComponent(creds.password)])) out = out.split(form).join('***');
  }
  return out;
}

function credentialsOf(secret: string, m: PushMirror): Credentials {
  if (!m.credentials_sealed) return { username: '', password: '' };
  return JSON.parse(unseal(secret, PUSH_MIRROR_PURPOSE, m.credentials_sealed)) as Credentials;
}

/**
 * `git push --force --prune` of the branches and tags to the remote: what Gitea's mirror remote
 * (`remote add --mirror=push` with the heads and tags refspecs) pushes. The address is checked
 * again as the repository's owner would add it (a local path only for a site admin under
 * allow_local_paths). '' or the error text.
 */
async function pushTo(config: Config, dir: string, m: PushMirror, creds: Credentials, owner: User, signal?: AbortSignal): Promise<string> {
  let remote;
  try {
    remote = await checkRemote(config, m.remote_address, owner);
  } catch (err) {
    if (err instanceof AppError) return err.message;
    throw err;
  }
  const auth = gitCredentials(creds.username, creds.password);
  // A remote that stalls must not hold the mirror's key for ever: git gives up on an HTTP
  // transfer slower than 1 byte/s for STALL_SECONDS.
  const stall = ['-c', 'http.lowSpeedLimit=1', '-c', `http.lowSpeedTime=${STALL_SECONDS}`];
  const args = [...remote.gitConfig, ...auth.config, ...stall, 'push', '--force', '--prune', '--porcelain', remote.address,
    '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];
  const r = await gitRun(args, { gitDir: dir, env: auth.env, signal });
  if (r.code === 0) return '';
  const tail = r.stderr.trim().split('\n').slice(-5).join('\n') || `git push exited with ${r.code}`;
  return `push: ${tail}`.slice(0, 4096);
}

/** The job: one push of one mirror, its outcome recorded on the mirror (Gitea's SyncPushMirror). */
export async function runPushMirrorSync(h: Hearth, id: number, ctx?: JobContext): Promise<void> {
  if (!h.config.mirror.enabled) return;
  const m = await getPushMirrorById(h.db, id);
  if (!m) return;
  const repo = await getRepoById(h.db, m.repo_id);
  const owner = repo && (await getUserById(h.db, repo.owner_id));
  if (!repo || !owner) return;
  let creds: Credentials = { username: '', password: '' };
  let error: string;
  try {
    creds = credentialsOf(h.secret, m);
    error = await pushTo(h.config, repoDir(h.config.repository.root, owner.name, repo.name), m, creds, owner, ctx?.signal);
  } catch (err) {
    error = `push: ${err instanceof Error ? err.message : String(err)}`;
  }
  // The lease lost meanwhile (git was killed): the push is the other node's to run and record.
  ctx?.signal.throwIfAborted();
  error = scrubCredentials(error, creds);
  const recorded = await h.db.transaction().execute(async (trx) => {
    if (ctx && !(await ctx.holdsLease(trx))) return false;
    await recordPushMirrorSync(trx, m.id, nowUnix(), error);
    return true;
  });
  ctx?.signal.throwIfAborted();
  if (recorded && error) ctx?.log.warn({ pushMirror: m.id, repo: repo.id, err: error }, 'push mirror failed');
}

/**
 * Pushes follow the domain events: after any move of a repository's refs, its push mirrors with
 * sync_on_commit are queued (Gitea's mirror notifier). The job kind is registered here too.
 */
export function subscribePushMirrors(h: Hearth): void {
  h.events.on('refs.moved', 'push mirrors', async (e) => {
    if (!h.config.mirror.enabled) return;
    for (const id of await pushMirrorIdsOfRepo(h.db, e.repo.id, true)) await enqueuePushMirrorSync(h.db, id);
  });
  h.jobs.register(PUSH_MIRROR_JOB, {
    backoff: () => 60,
    handler: (payload, ctx) => runPushMirrorSync(h, payload.pushMirrorId, ctx),
  });
}
