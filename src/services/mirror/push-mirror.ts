import crypto from 'node:crypto';
import type { Config } from '../../config/schema';
import type { PushMirror, User } from '../../db/schema';
import { AppError, BadRequestError, NotFoundError } from '../../lib/errors';
import { seal } from '../../lib/secret-box';
import { nowUnix } from '../../lib/time';
import {
  deletePushMirrorByName, getPushMirrorByName, insertPushMirror, listPushMirrors, pushMirrorIdsOfRepo,
} from '../../models/push-mirror';
import { parseDuration } from '../cron/duration';
import { checkRemote } from '../migrate/remote-address';
import type { RepoAccess } from '../repo/repos';
import { enqueuePushMirrorSync, PUSH_MIRROR_PURPOSE } from './push-mirror-sync';
import type { Hearth } from '../../hearth';

// A repository's push mirrors, as Gitea's API manages them (routers/api/v1/repo/mirror.go):
// every route answers 400 while [mirror] is disabled; the remote must pass [migrations]; the
// credentials never reach the address, the git config or the answer: they are sealed apart.

export type PushMirrorInput = {
  remote_address: string;
  remote_username?: string;
  remote_password?: string;
  interval?: string;
  sync_on_commit?: boolean;
};

export type PushMirrorView = { mirror: PushMirror; repoName: string };

/** Gitea's `if !setting.Mirror.Enabled` at the top of each push mirror route. */
export function assertMirrorsEnabled(config: Config): void {
  if (!config.mirror.enabled) throw new BadRequestError('Mirror feature is disabled');
}

/**
 * Gitea's time.ParseDuration of the interval: empty or malformed is refused, as is anything
 * shorter than min_interval but 0 (no scheduled pushes). In whole seconds.
 */
function intervalSeconds(config: Config, text: string): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch {
    throw new BadRequestError(`time: invalid duration "${text}"`);
  }
  if (ms !== 0 && ms < parseDuration(config.mirror.min_interval)) {
    throw new BadRequestError(`the interval must be 0 or at least ${config.mirror.min_interval}`);
  }
  return Math.round(ms / 1000);
}

/** Gitea's "remote_mirror_" + util.CryptoRandomString(10). */
function remoteName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = 'remote_mirror_';
  for (let i = 0; i < 10; i++) out += alphabet[crypto.randomInt(alphabet.length)];
  return out;
}

/**
 * Where the remote may be: checkRemote's verdict, answered 400 as Gitea's push mirror routes
 * answer the addresses they refuse (Gitea says 401 "Permission denied" for a forbidden host,
 * which a client takes for bad credentials; 400 is what its reference lists).
 */
async function checkedRemote(config: Config, raw: string, doer: User) {
  try {
    return await checkRemote(config, raw, doer);
  } catch (err) {
    if (err instanceof AppError && err.status === 422) throw new BadRequestError(err.message);
    throw err;
  }
}

export async function createPushMirror(
  h: Hearth, access: RepoAccess, doer: User, input: PushMirrorInput,
): Promise<PushMirrorView> {
  assertMirrorsEnabled(h.config);
  if (h.config.mirror.disable_new_push) throw new BadRequestError('New push mirrors are disabled');
  const interval = intervalSeconds(h.config, input.interval ?? '');
  const remote = await checkedRemote(h.config, input.remote_address ?? '', doer);
  // As Gitea's ParseRemoteAddr: credentials given apart replace those of the address.
  const apart = Boolean(input.remote_username || input.remote_password);
  const username = apart ? input.remote_username ?? '' : remote.username;
  const password = apart ? input.remote_password ?? '' : remote.password;
  const credentials = username || password ? seal(h.secret, PUSH_MIRROR_PURPOSE, JSON.stringify({ username, password })) : '';
  const mirror = await insertPushMirror(h.db, {
    repo_id: access.repo.id, remote_name: remoteName(), remote_address: remote.address, credentials_sealed: credentials,
    sync_on_commit: input.sync_on_commit ? 1 : 0, interval_seconds: interval, created_unix: nowUnix(),
  });
  return { mirror, repoName: access.repo.name };
}

export async function listRepoPushMirrors(
  h: Hearth, access: RepoAccess, page: { offset: number; limit: number },
): Promise<{ mirrors: PushMirrorView[]; total: number }> {
  assertMirrorsEnabled(h.config);
  const { mirrors, total } = await listPushMirrors(h.db, access.repo.id, page);
  return { mirrors: mirrors.map((mirror) => ({ mirror, repoName: access.repo.name })), total };
}

export async function getRepoPushMirror(h: Hearth, access: RepoAccess, name: string): Promise<PushMirrorView> {
  assertMirrorsEnabled(h.config);
  const mirror = await getPushMirrorByName(h.db, access.repo.id, name);
  if (!mirror) throw new NotFoundError();
  return { mirror, repoName: access.repo.name };
}

/** 404 for a name the repository has no push mirror of, as the reference lists (Gitea itself answers 204). */
export async function deleteRepoPushMirror(h: Hearth, access: RepoAccess, name: string): Promise<void> {
  assertMirrorsEnabled(h.config);
  if (!(await deletePushMirrorByName(h.db, access.repo.id, name))) throw new NotFoundError();
}

/** Gitea's PushMirrorSync: every push mirror of the repository is queued (not awaited). */
export async function syncRepoPushMirrors(h: Hearth, access: RepoAccess): Promise<void> {
  assertMirrorsEnabled(h.config);
  for (const id of await pushMirrorIdsOfRepo(h.db, access.repo.id)) await enqueuePushMirrorSync(h.db, id);
}
