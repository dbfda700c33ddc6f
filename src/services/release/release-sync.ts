import type { DB } from '../../db/connect';
import { lockRow } from '../../db/dialect';
import type { RefUpdate } from '../../git/hooks';
import { countCommits } from '../../git/log';
import { getTag as readTag, refTarget } from '../../git/refs';
import { deleteReleaseRow, releaseRowsOfTags, taggedReleaseRows, updateReleaseRow } from '../../models/release';
import { repoDir } from '../../git/repo';
import { listRepoLocations } from '../../models/repo-counters';
import { syncReleaseCounter } from './releases';

// Releases follow tags moved by a push (Gitea's PushUpdateAddTags / PushUpdateDeleteTags): a
// deleted tag turns its release back into a draft (a tag-only row goes), a moved or re-created
// tag gives its release the new commit and date.

const TAG_PREFIX = 'refs/tags/';
const isZero = (id: string) => /^0+$/.test(id);

type Change = { id: number; drop: boolean; patch: { is_draft?: number; sha1: string; num_commits: number; created_unix?: number } };

async function changesOf(repoId: number, db: DB, dir: string, updates: RefUpdate[]): Promise<Change[]> {
  const tags = updates.filter((u) => u.ref.startsWith(TAG_PREFIX));
  const rows = new Map((await releaseRowsOfTags(db, repoId, tags.map((u) => u.ref.slice(TAG_PREFIX.length)))).map((r) => [r.tag_name, r]));
  const changes: Change[] = [];
  for (const u of tags) {
    const row = rows.get(u.ref.slice(TAG_PREFIX.length));
    if (!row) continue;
    // The request lists what was asked: a refused deletion left the tag in place.
    if (isZero(u.newId)) {
      if (await refTarget(dir, u.ref)) continue;
      changes.push({ id: row.id, drop: row.is_tag === 1, patch: { is_draft: 1, sha1: '', num_commits: 0 } });
      continue;
    }
    const info = await readTag(dir, row.tag_name);
    if (!info) continue;
    const numCommits = await countCommits(dir, { revs: [info.commit] });
    changes.push({ id: row.id, drop: false, patch: { sha1: info.commit, num_commits: numCommits, created_unix: info.unix } });
  }
  return changes;
}

/** After a push landed: git is read first, then the rows and the counter change in one transaction. */
export async function syncReleasesAfterPush(db: DB, repoId: number, dir: string, updates: RefUpdate[]): Promise<void> {
  const changes = await changesOf(repoId, db, dir, updates);
  if (!changes.length) return;
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'repository', repoId);
    for (const c of changes) {
      if (c.drop) await deleteReleaseRow(trx, c.id);
      else await updateReleaseRow(trx, c.id, c.patch);
    }
    await syncReleaseCounter(trx, repoId);
  });
}

const ZERO = '0'.repeat(40);

/**
 * Gitea's SyncReleasesWithTags (`admin repo-sync-releases`): every release checked against its tag
 * in git, for tags moved or deleted behind hearth's back (a restored or hand-edited repository).
 * Only releases whose tag moved or went change (as after a push); returns how many.
 */
export async function resyncReleases(db: DB, repoId: number, dir: string): Promise<number> {
  const updates: RefUpdate[] = [];
  for (const row of await taggedReleaseRows(db, repoId)) {
    const tag = await readTag(dir, row.tag_name);
    if (tag ? tag.commit !== row.sha1 : !row.is_draft) updates.push({ ref: `${TAG_PREFIX}${row.tag_name}`, oldId: row.sha1 || ZERO, newId: tag?.commit ?? ZERO });
  }
  await syncReleasesAfterPush(db, repoId, dir, updates);
  return updates.length;
}

/** resyncReleases for every repository; one that fails (no directory, say) is named and the others go on. */
export async function resyncAllReleases(db: DB, repoRoot: string): Promise<{ repos: number; changed: number; failed: string[] }> {
  const out = { repos: 0, changed: 0, failed: [] as string[] };
  for (const r of await listRepoLocations(db)) {
    try {
      out.changed += await resyncReleases(db, r.id, repoDir(repoRoot, r.ownerName, r.name));
      out.repos++;
    } catch (err) {
      out.failed.push(`${r.ownerName}/${r.name}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return out;
}
