import fs from 'node:fs';
import type { DB } from '../../db/connect';
import { smallBlobsInRefs } from '../../git/small-blobs';
import { repoDir } from '../../git/repo';
import { nowUnix } from '../../lib/time';
import * as lfs from '../../models/lfs';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { blobTouchedAt, removeBlobFile } from '../packages/blob-store';
import { parseDuration } from '../cron/duration';
import type { CronContext } from '../cron/types';
import { parsePointer, POINTER_MAX_SIZE } from './pointer';

// Gitea's gc_lfs (services/repository/lfs.go GarbageCollectLFSMetaObjects): meta objects old
// enough that their push has surely finished, and not checked lately, are kept when a pointer
// in some ref names them (and marked checked) and dropped otherwise; an object's bytes leave
// the shared store once neither a repository nor a package blob uses them.

export type GcLfsSettings = {
  older_than: string; last_updated_more_than_ago: string;
  number_to_check_per_repo: number; proportion_to_check_per_repo: number;
};

/** The oids the pointers in a repository's refs name. */
async function referencedOids(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const bytes of await smallBlobsInRefs(dir, POINTER_MAX_SIZE)) {
    const p = parsePointer(bytes);
    if (p) out.add(p.oid);
  }
  return out;
}

async function gcRepo(ctx: CronContext, repoId: number, s: GcLfsSettings, before: number, touchedBefore: number): Promise<number> {
  const repo = await getRepoById(ctx.db, repoId);
  const owner = repo ? await getUserById(ctx.db, repo.owner_id) : undefined;
  if (!repo || !owner) return 0;
  const dir = repoDir(ctx.config.repository.root, owner.name, repo.name);
  if (!fs.existsSync(dir)) return 0;
  const count = await lfs.countMetaOf(ctx.db, repoId);
  const limit = Math.max(s.number_to_check_per_repo, Math.ceil(count * s.proportion_to_check_per_repo));
  const metas = await lfs.oldMetaOf(ctx.db, repoId, before, touchedBefore, limit > 0 ? limit : count);
  if (!metas.length) return 0;
  const used = await referencedOids(dir);
  await lfs.touchMetaObjects(ctx.db, metas.filter((m) => used.has(m.oid)).map((m) => m.id), nowUnix());
  let removed = 0;
  for (const m of metas.filter((x) => !used.has(x.oid))) {
    await lfs.deleteMetaObject(ctx.db, repoId, m.oid);
    // A file stored again since (a new upload of the same bytes) stays for its row to come.
    const fresh = (await blobTouchedAt(ctx.blobs, m.oid)) >= before * 1000;
    if (!fresh && !(await lfs.oidInUse(ctx.db, m.oid))) await removeBlobFile(ctx.blobs, m.oid);
    removed++;
  }
  return removed;
}

export async function gcLfs(ctx: CronContext, s: GcLfsSettings): Promise<string> {
  if (!ctx.config.server.lfs_start_server) return 'the LFS server is disabled: nothing to collect';
  const now = nowUnix();
  const before = now - Math.floor(parseDuration(s.older_than) / 1000);
  const touchedBefore = now - Math.floor(parseDuration(s.last_updated_more_than_ago) / 1000);
  let removed = 0;
  const repos = await lfs.reposWithOldMeta(ctx.db, before + 1, touchedBefore + 1);
  for (const id of repos) {
    if (ctx.signal.aborted) throw new Error('cancelled');
    removed += await gcRepo(ctx, id, s, before + 1, touchedBefore + 1);
  }
  return `checked ${repos.length} repositories, removed ${removed} unreferenced LFS meta object(s)`;
}

/** After a repository's rows are gone: the bytes of its objects no one else uses. */
export async function removeOrphanObjects(db: DB, store: BlobStorage, oids: string[]): Promise<void> {
  for (const oid of oids) if (!(await lfs.oidInUse(db, oid))) await removeBlobFile(store, oid);
}
