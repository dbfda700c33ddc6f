import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import { repoLabelIdsByName, repoMilestoneIdsByName } from '../../models/migrated-rows';
import { GiteaClient } from './gitea/client';
import { AuthorMap, type ImportContext } from './gitea/context';
import { importIssues, refreshCounters } from './gitea/issues';
import { importLabels, importMilestones } from './gitea/labels';
import { importPulls } from './gitea/pulls';
import { importReleases } from './gitea/releases';
import { importTopics } from './gitea/topics';

// Reads a Gitea, Forgejo or Gogs repository's issues, pull requests, labels, milestones,
// releases and topics through the source's REST API and writes them into a repository that
// the migration has just cloned (Gitea's gitea_downloader + gitea_uploader). Rows are written
// page by page without events or notifications: migrated content notifies no one, as in Gitea.

export type GiteaSource = {
  /** The source's root, e.g. https://gitea.example.com/ (ending with a slash). */
  baseUrl: string;
  owner: string;
  repo: string;
  token: string;
  service: 'gitea' | 'forgejo' | 'gogs';
};

export type ImportItems = {
  labels: boolean; milestones: boolean; issues: boolean; pull_requests: boolean; releases: boolean;
};

export type ImportOptions = {
  items: ImportItems;
  log: Logger;
  /** Aborted when the migration's time limit passes: stop and throw. */
  signal: AbortSignal;
  /** Makes every outgoing request pass the [migrations] address check (an undici dispatcher). */
  dispatcher: import('undici').Dispatcher;
  maxAttempts: number;
  retryBackoffMs: number;
  /** The attachment store, `<data_dir>/attachments`: release assets are written there. */
  attachmentsDir: string;
  /**
   * The target's bare git directory. With it, pull request heads are kept as refs/pull/N/head
   * and releases get their tag's commit; without it both are left as they are.
   */
  gitDir?: string;
};

export type ImportCounts = Record<string, number>;

export async function importFromGitea(
  db: DB, target: { repo: Repository; owner: User; doer: User }, source: GiteaSource, opts: ImportOptions,
): Promise<ImportCounts> {
  const client = new GiteaClient({
    baseUrl: source.baseUrl.endsWith('/') ? source.baseUrl : `${source.baseUrl}/`, owner: source.owner, repo: source.repo,
    token: source.token, dispatcher: opts.dispatcher, signal: opts.signal, maxAttempts: opts.maxAttempts, retryBackoffMs: opts.retryBackoffMs,
  });
  const ctx: ImportContext = {
    db, ...target, client, log: opts.log, signal: opts.signal, gitDir: opts.gitDir, attachmentsDir: opts.attachmentsDir,
    authors: new AuthorMap(db, target.doer),
    labels: await repoLabelIdsByName(db, target.repo.id),
    milestones: await repoMilestoneIdsByName(db, target.repo.id),
  };
  // The token is never logged: only the source's address and what is read.
  opts.log.info({ repo: target.repo.id, source: `${client.repoUrl('')}`, service: source.service }, 'migration: importing from the source API');
  const counts: ImportCounts = {};
  const { items } = opts;
  if (items.labels) counts.labels = await importLabels(ctx);
  if (items.milestones) counts.milestones = await importMilestones(ctx);
  if (items.issues) {
    const c = await importIssues(ctx);
    Object.assign(counts, { issues: c.items, issue_comments: c.comments, issue_reactions: c.reactions, issues_skipped: c.skipped });
  }
  if (items.pull_requests) {
    const c = await importPulls(ctx);
    Object.assign(counts, {
      pull_requests: c.items, pull_comments: c.comments, pull_reactions: c.reactions, pulls_skipped: c.skipped,
      reviews: c.reviews, pull_heads_missing: c.missingHeads,
    });
  }
  if (items.issues || items.pull_requests || items.labels || items.milestones) await refreshCounters(ctx);
  if (items.releases) {
    const c = await importReleases(ctx);
    Object.assign(counts, { releases: c.releases, release_assets: c.assets });
  }
  // Gitea migrates topics with the repository itself, whatever the selected items.
  counts.topics = await importTopics(ctx);
  opts.log.info({ repo: target.repo.id, counts }, 'migration: import finished');
  return counts;
}
