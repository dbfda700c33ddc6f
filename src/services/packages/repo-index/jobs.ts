import type { DB } from '../../../db/connect';
import type { Package, User } from '../../../db/schema';
import { hasPendingJob } from '../../../models/job';
import { filePropertyMaps, indexedFiles, indexScopes, ownersWithType } from '../../../models/package-index';
import { getUserById } from '../../../models/user';
import { enqueueJob, RetryableError, type JobQueue } from '../../jobs/queue';
import { dropIndex, indexPackageName, publishIndex, scopeOfVersion, type IndexFileInput } from './store';
import type { Hearth } from '../../../hearth';

// Repository indexes are rebuilt by a durable job after each change, never inside the upload's
// request: the change's transaction queues the job (so a crash cannot lose it), one job of a
// kind per owner and scope runs at a time, and a job already waiting covers later changes.

export const INDEX_JOB_KINDS = {
  debian: 'packages.index.debian',
  rpm: 'packages.index.rpm',
  arch: 'packages.index.arch',
  alpine: 'packages.index.alpine',
} as const;
export type IndexedType = keyof typeof INDEX_JOB_KINDS;
export type IndexJob = { ownerId: number; scope: string };
/** The instance handle (the name stays for the callers that spell it). */
export type IndexDeps = Hearth;
/** A scope's index files, built from the rows; none: the scope has no packages left. */
export type IndexBuilder = (deps: IndexDeps, owner: User, scope: string) => Promise<IndexFileInput[]>;

/** The scope a package file belongs to, from its properties (each builder rebuilds one scope). */
export const SCOPE_OF: Record<IndexedType, (props: Record<string, string>) => string | undefined> = {
  debian: (p) => p['debian.distribution'],
  rpm: (p) => p['rpm.group'],
  arch: (p) => p['arch.repository'],
  alpine: (p) => (p['alpine.branch'] !== undefined ? `${p['alpine.branch']}/${p['alpine.repository']}` : undefined),
};

// Loaded with the first job of the kind: no registry code at start.
const BUILDERS: Record<IndexedType, () => Promise<IndexBuilder>> = {
  debian: () => import('../debian/index-build').then((m) => m.buildDebianIndex),
  rpm: () => import('../rpm/index-build').then((m) => m.buildRpmIndex),
  arch: () => import('../arch/index-build').then((m) => m.buildArchIndex),
  alpine: () => import('../alpine/index-build').then((m) => m.buildAlpineIndex),
};

export const isIndexedType = (type: string): type is IndexedType => Object.hasOwn(INDEX_JOB_KINDS, type);
const jobKey = (type: IndexedType, j: IndexJob) => `packages-index:${type}:${j.ownerId}:${j.scope}`;

/** Queues a rebuild of one scope unless one is waiting already (`db` may be a transaction). */
export async function queueIndexRebuild(db: DB, type: IndexedType, job: IndexJob): Promise<void> {
  const key = jobKey(type, job);
  if (await hasPendingJob(db, key)) return;
  await enqueueJob(db, { kind: INDEX_JOB_KINDS[type], key, payload: job, maxAttempts: 3 });
}

/** Queues the rebuilds the change of these files of a package needs (inside the change's transaction). */
export async function queueIndexRebuildsOfFiles(db: DB, pkg: Package, fileIds: number[]): Promise<void> {
  if (!isIndexedType(pkg.type) || pkg.is_internal || !fileIds.length) return;
  const scopes = new Set<string>();
  for (const props of (await filePropertyMaps(db, fileIds)).values()) {
    const scope = SCOPE_OF[pkg.type](props);
    if (scope !== undefined) scopes.add(scope);
  }
  for (const scope of scopes) await queueIndexRebuild(db, pkg.type, { ownerId: pkg.owner_id, scope });
}

/**
 * Every index again (cleanup_packages): each scope some package file names, and each scope built
 * before (it may have lost its last package). Heals an index whose job failed for good.
 */
export async function queueAllIndexRebuilds(db: DB): Promise<number> {
  let n = 0;
  for (const type of Object.keys(INDEX_JOB_KINDS) as IndexedType[]) {
    const scopes = new Map<string, IndexJob>();
    const add = (ownerId: number, scope: string) => scopes.set(`${ownerId}\0${scope}`, { ownerId, scope });
    for (const s of await indexScopes(db, type, indexPackageName(type))) add(s.owner_id, scopeOfVersion(s.version));
    for (const ownerId of await ownersWithType(db, type)) {
      for (const f of await indexedFiles(db, ownerId, type)) {
        const scope = SCOPE_OF[type](f.props);
        if (scope !== undefined) add(ownerId, scope);
      }
    }
    for (const job of scopes.values()) await queueIndexRebuild(db, type, job);
    n += scopes.size;
  }
  return n;
}

/** Registers one job kind per index type; each builder's module loads with its first job. */
export function registerPackageIndexJobs(jobs: JobQueue, deps: IndexDeps): void {
  for (const type of Object.keys(INDEX_JOB_KINDS) as IndexedType[]) {
    jobs.register(INDEX_JOB_KINDS[type], {
      backoff: () => 10,
      handler: async (job, ctx) => {
        const owner = await getUserById(deps.db, job.ownerId);
        const load = BUILDERS[type];
        if (!owner) return;
        let files: IndexFileInput[];
        try {
          files = await (await load())(deps, owner, job.scope);
        } catch (err) {
          throw new RetryableError(err instanceof Error ? err.message : String(err));
        }
        // Written under this node's lease only: once it is lost, the node that took the job over
        // builds from rows at least as new, and a later upload found this job pending and queued
        // none of its own, so this older build must not land over that one.
        const where = { ownerId: owner.id, type, scope: job.scope };
        const written = files.length ? await publishIndex(deps.db, deps.blobs, where, files, ctx.holdsLease) : await dropIndex(deps.db, where, ctx.holdsLease);
        if (!written) ctx.signal.throwIfAborted();
      },
    });
  }
}
