import type { DB } from '../../db/connect';
import { nowUnix } from '../../lib/time';
import { forgetDeletedBranches, purgeDeletedBranches, recordDeletedBranch } from '../../models/deleted-branch';
import type { Hearth } from '../../hearth';

// Deleted branches, as Gitea keeps them: every branch a push or hearth deletes is remembered
// (name, last commit, who, when) so the branches page can restore it while git still has the
// commit; a branch made again under that name is forgotten, and the cron task
// `deleted_branches_cleanup` forgets the old ones. Loaded at start (the subscriber): models only.

const ZERO = /^0+$/;
const HEAD = 'refs/heads/';

/** Follows every ref move (pushes, the API, the web pages) through refs.moved. */
export function subscribeDeletedBranches(h: Hearth): void {
  h.events.on('refs.moved', 'deleted-branches', async ({ repo, doer, updates }) => {
    const now = nowUnix();
    const made: string[] = [];
    for (const u of updates) {
      if (!u.ref.startsWith(HEAD)) continue;
      const name = u.ref.slice(HEAD.length);
      if (!ZERO.test(u.newId)) made.push(name);
      else if (!ZERO.test(u.oldId)) await recordDeletedBranch(h.db, { repo_id: repo.id, name, commit_id: u.oldId, deleted_by_id: doer.id, deleted_unix: now });
    }
    await forgetDeletedBranches(h.db, repo.id, made);
  });
}

/** The cron task: deletions older than `olderThanMs` are forgotten. */
export async function cleanupDeletedBranches(db: DB, olderThanMs: number): Promise<string> {
  const removed = await purgeDeletedBranches(db, nowUnix() - Math.floor(olderThanMs / 1000));
  return `forgot ${removed} deleted branches older than ${olderThanMs / 3_600_000}h`;
}
