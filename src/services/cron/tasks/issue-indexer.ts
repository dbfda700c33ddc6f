import { listRebuildableFtsTables, rebuildFtsTable } from '../../../models/search-index';
import type { CronContext } from '../types';

/**
 * rebuild_issue_indexer (Gitea's issue indexer rebuilt from the database): hearth's indexes are
 * SQLite FTS5 tables kept by triggers; each is rebuilt from the table it indexes.
 */
export async function rebuildIssueIndexer(ctx: CronContext): Promise<string> {
  const tables = await listRebuildableFtsTables(ctx.db);
  for (const table of tables) {
    if (ctx.signal.aborted) throw new Error(`cancelled before rebuilding ${table}`);
    await rebuildFtsTable(ctx.db, table);
  }
  return tables.length ? `rebuilt the search indexes ${tables.join(', ')}` : 'no search index to rebuild';
}
