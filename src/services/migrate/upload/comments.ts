import { COMMENT_TYPE } from '../../../lib/comment-type';
import { insertComment } from '../../../models/comment';
import type { RepoComment } from '../downloader';
import { unix, type ImportContext } from './context';
import { writeReactions, type RowCounts } from './issue-rows';

// Comments read from the source's repository-wide list (GitHub's), after the issues and pulls
// they belong to: one transaction per page, each comment under the item of its number written
// by this import; one on an item not imported (not selected, or skipped) is left out.

export async function importRepoComments(ctx: ImportContext, pages: AsyncIterable<RepoComment[]>): Promise<Record<string, number>> {
  const counts = { issue_comments: 0, pull_comments: 0, comment_reactions: 0, comments_skipped: 0 };
  for await (const page of pages) {
    const mine = page.filter((c) => ctx.imported.has(c.issue));
    counts.comments_skipped += page.length - mine.length;
    await ctx.authors.prime(mine.flatMap((c) => [c.user, ...(c.reactions ?? []).map((r) => r.user)]));
    const reactions: RowCounts = { items: 0, comments: 0, reactions: 0, skipped: 0 };
    await ctx.db.transaction().execute(async (trx) => {
      for (const c of mine) {
        const item = ctx.imported.get(c.issue)!;
        const created = unix(c.created_at) || item.created;
        const row = await insertComment(trx, {
          type: COMMENT_TYPE.comment, issue_id: item.id, content: c.body ?? '', created_unix: created,
          updated_unix: unix(c.updated_at) || created, ...ctx.authors.of(c.user),
        });
        if (item.isPull) counts.pull_comments++;
        else counts.issue_comments++;
        await writeReactions(ctx, trx, { issueId: item.id, commentId: row.id, time: created }, c.reactions ?? [], reactions);
      }
    });
    counts.comment_reactions += reactions.reactions;
    ctx.log.info({ repo: ctx.repo.id, ...counts }, 'migration: comments imported');
  }
  return counts;
}
