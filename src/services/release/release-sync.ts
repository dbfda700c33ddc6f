import type { DB } from '../../db/connect';
import type { RefUpdate } from '../../git/hooks';
import { countCommits } from '../../git/log';
import { getTag as readTag, refTarget } from '../../git/refs';
import { deleteReleaseRow, releaseRowsOfTags, updateReleaseRow } from '../../models/release';
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
    for (const c of changes) {
      if (c.drop) await deleteReleaseRow(trx, c.id);
      else await updateReleaseRow(trx, c.id, c.patch);
    }
    await syncReleaseCounter(trx, repoId);
  });
}
