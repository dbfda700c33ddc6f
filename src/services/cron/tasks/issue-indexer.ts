import { listRebuildableSearchIndexes, rebuildSearchIndex } from '../../../models/search-index';
import type { CronContext } from '../types';

/**
 * rebuild_issue_indexer (Gitea's issue indexer rebuilt from the database): hearth's indexes are
 * SQLite FTS5 tables kept by triggers, or PostgreSQL trigram indexes; each is rebuilt from the
 * table it indexes.
 */
export async function rebuildIssueIndexer(ctx: CronContext): Promise<string> {
  const indexes = await listRebuildableSearchIndexes(ctx.db);
  for (const index of indexes) {
    if (ctx.signal.aborted) throw new Error(`cancelled before rebuilding ${index}`);
    await rebuildSearchIndex(ctx.db, index);
  }
  return indexes.length ? `rebuilt the search indexes ${indexes.join(', ')}` : 'no search index to rebuild';
}
