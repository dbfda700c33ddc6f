import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { CommitStatus, User } from '../../db/schema';
import { resolveCommit } from '../../git/log';
import { refTarget } from '../../git/refs';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { combineStates, STATUS_STATES, type StatusState } from '../../lib/commit-state';
import { nowUnix } from '../../lib/time';
import { insertCommitStatus, latestCommitStatuses, listCommitStatuses, type StatusSort } from '../../models/commit-status';
import { usersByIds } from '../../models/user-lookup';
import { repoDirOf } from './commits';
import type { RepoAccess } from './repos';
import { emit } from '../events/bus';
import type { Hearth } from '../../hearth';

export { STATUS_STATES, type StatusState } from '../../lib/commit-state';

/** Statuses with their creators by id. */
export type StatusesWithCreators = { rows: CommitStatus[]; creators: Map<number, User> };

async function withCreators(db: DB, rows: CommitStatus[]): Promise<StatusesWithCreators> {
  const users = await usersByIds(db, [...new Set(rows.map((r) => r.creator_id).filter((id) => id > 0))]);
  return { rows, creators: new Map(users.map((u) => [u.id, u])) };
}

const HEX = /^[0-9a-f]+$/i;

/**
 * As Gitea's ResolveRefCommit(ref, 7): a branch, then a tag, then something that looks like a
 * commit id (7 hex digits or more); anything else, or nothing found, is a 404.
 */
export async function resolveRefCommit(config: Config, access: RepoAccess, ref: string): Promise<string> {
  const dir = repoDirOf(config, access);
  let rev: string | null = null;
  if (ref && (await refTarget(dir, `refs/heads/${ref}`))) rev = `refs/heads/${ref}`;
  else if (ref && (await refTarget(dir, `refs/tags/${ref}`))) rev = `refs/tags/${ref}`;
  else if (HEX.test(ref) && ref.length >= 7 && ref.length <= 64) rev = ref;
  const id = rev ? await resolveCommit(dir, rev) : null;
  if (!id) throw new NotFoundError(`object does not exist [id: ${ref}, rel_path: ]`);
  return id;
}

/** As Gitea's MustConvertToSHA1: a ref or short id becomes its commit id, anything else stays as given. */
async function statusSha(config: Config, access: RepoAccess, sha: string): Promise<string> {
  try {
    return await resolveRefCommit(config, access, sha);
  } catch (err) {
    if (err instanceof NotFoundError) return sha;
    throw err;
  }
}

export type CreateStatusInput = { state: StatusState; target_url: string; description: string; context: string };

/** Records a status for the commit `sha` names (any revision), under its full id. */
export async function createCommitStatus(
  h: Hearth, access: RepoAccess, doer: User, sha: string, input: CreateStatusInput,
): Promise<StatusesWithCreators> {
  if (!STATUS_STATES.includes(input.state)) throw new InvalidError('[state]: invalid commit status state', 'state');
  const id = await resolveCommit(repoDirOf(h.config, access), sha);
  if (!id) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
  const row = await insertCommitStatus(h.db, {
    repoId: access.repo.id, sha: id, state: input.state, creatorId: doer.id, unix: nowUnix(),
    targetUrl: input.target_url.trim(), description: input.description.trim(), context: input.context.trim(),
  });
  await emit(h.db, 'commit.status', { repo: access.repo, doer, sha: id, status: row });
  return { rows: [row], creators: new Map([[doer.id, doer]]) };
}

export type StatusListQuery = { sort: string; state: string; offset: number; limit: number };

const SORTS = new Set(['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex']);
const FILTER_STATES = new Set(['pending', 'success', 'error', 'failure', 'warning']);

/** A commit's statuses; `byRef` resolves branch and tag names strictly (404), else as Gitea's sha route. */
export async function listStatuses(
  h: Hearth, access: RepoAccess, shaOrRef: string, byRef: boolean, q: StatusListQuery,
): Promise<StatusesWithCreators & { total: number }> {
  const sha = byRef ? await resolveRefCommit(h.config, access, shaOrRef) : await statusSha(h.config, access, shaOrRef);
  const { rows, total } = await listCommitStatuses(h.db, {
    repoId: access.repo.id, sha, offset: q.offset, limit: q.limit,
    sort: (SORTS.has(q.sort) ? q.sort : '') as StatusSort, state: FILTER_STATES.has(q.state) ? q.state : undefined,
  });
  return { ...(await withCreators(h.db, rows)), total };
}

export type Combined = StatusesWithCreators & { sha: string; total: number; state: StatusState };


/** The latest status of each context on the commit `ref` names, with the combined state. */
export async function combinedStatus(
  h: Hearth, access: RepoAccess, ref: string, page: { offset: number; limit: number },
): Promise<Combined> {
  const sha = await resolveRefCommit(h.config, access, ref);
  const { rows, total } = await latestCommitStatuses(h.db, access.repo.id, sha, page);
  return { ...(await withCreators(h.db, rows)), sha, total, state: combineStates(rows.map((r) => r.state)) };
}
