import { COUNTED_COMMENT_TYPES } from '../../../lib/comment-type';
import { lockRow } from '../../../db/dialect';
import { refreshRepoIssueCounts } from '../../../models/issue';
import { refreshRepoMilestoneCounts } from '../../../models/milestone';
import { refreshRepoLabelAndMilestoneCounts, refreshRepoNumComments, syncIssueIndex } from '../../../models/migrated-rows';
import type { ImportContext } from './context';
import { addCounts, fetchExtras, primeAuthors, writePage, type RowCounts } from './issue-rows';

// Issues (Gitea's GetIssues with type=issues, then CreateIssues and CreateComments), page by page.

export async function importIssues(ctx: ImportContext): Promise<RowCounts> {
  const total: RowCounts = { items: 0, comments: 0, reactions: 0, skipped: 0 };
  for await (const page of ctx.source.getIssues()) {
    const fetched = [];
    for (const item of page) fetched.push(await fetchExtras(ctx, item));
    await primeAuthors(ctx, fetched);
    addCounts(total, await writePage(ctx, fetched, false));
    ctx.log.info({ repo: ctx.repo.id, issues: total.items, comments: total.comments }, 'migration: issues imported');
  }
  return total;
}

/**
 * The counters Gitea recounts after a migration: the repository's issues and pulls, each
 * label's and milestone's issues, each issue's comments, and the numbering (next = max + 1).
 */
export async function refreshCounters(ctx: ImportContext): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'repository', ctx.repo.id);
    await refreshRepoIssueCounts(trx, ctx.repo.id);
    await refreshRepoLabelAndMilestoneCounts(trx, ctx.repo.id);
    await refreshRepoMilestoneCounts(trx, ctx.repo.id);
    await refreshRepoNumComments(trx, ctx.repo.id, COUNTED_COMMENT_TYPES);
    await syncIssueIndex(trx, ctx.repo.id);
  });
}
