import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import { repoLabelIdsByName, repoMilestoneIdsByName } from '../../models/migrated-rows';
import type { Downloader } from './downloader';
import { GiteaDownloader, type GiteaSource } from './downloaders/gitea';
import { importRepoComments } from './upload/comments';
import { AuthorMap, type ImportContext } from './upload/context';
import { importIssues, refreshCounters } from './upload/issues';
import { importLabels, importMilestones } from './upload/labels';
import { importPulls } from './upload/pulls';
import { importReleases } from './upload/releases';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { importTopics } from './upload/topics';

// The uploader (Gitea's gitea_uploader): reads a source's labels, milestones, issues, pull
// requests, releases and topics through its downloader and writes them into a repository that
// the migration has just cloned. Rows are written page by page without events or notifications:
// migrated content notifies no one, as in Gitea.

export type { GiteaSource };

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
  /** The instance's blob storage: release assets are stored there as uploads are. */
  blobs: BlobStorage;
  /** Where assets are downloaded to before they go into the store (node-local). */
  spoolDir: string;
  /**
   * The target's bare git directory. With it, pull request heads are kept as refs/pull/N/head
   * and releases get their tag's commit; without it both are left as they are.
   */
  gitDir?: string;
  /** Told each step as it starts (the migration's progress). */
  onStage?: (stage: string) => void;
};

export type ImportCounts = Record<string, number>;

export async function importFromSource(
  db: DB, target: { repo: Repository; owner: User; doer: User }, source: Downloader, opts: ImportOptions,
): Promise<ImportCounts> {
  const ctx: ImportContext = {
    db, ...target, source, log: opts.log, signal: opts.signal, gitDir: opts.gitDir, blobs: opts.blobs, spoolDir: opts.spoolDir,
    authors: new AuthorMap(db, target.doer),
    labels: await repoLabelIdsByName(db, target.repo.id),
    milestones: await repoMilestoneIdsByName(db, target.repo.id), imported: new Map(),
  };
  const stage = opts.onStage ?? (() => {});
  // The token is never logged: only the source's address and what is read.
  opts.log.info({ repo: target.repo.id, source: source.describe }, 'migration: importing from the source API');
  const counts: ImportCounts = {};
  const { items } = opts;
  stage('topics');
  // Gitea migrates topics with the repository itself, whatever the selected items.
  counts.topics = await importTopics(ctx);
  // Gitea's order: milestones and labels first (issues point at them), releases before issues.
  if (items.milestones) { stage('milestones'); counts.milestones = await importMilestones(ctx); }
  if (items.labels) { stage('labels'); counts.labels = await importLabels(ctx); }
  if (items.releases) {
    stage('releases');
    const c = await importReleases(ctx);
    Object.assign(counts, { releases: c.releases, release_assets: c.assets });
  }
  if (items.issues) {
    stage('issues');
    const c = await importIssues(ctx);
    Object.assign(counts, { issues: c.items, issue_comments: c.comments, issue_reactions: c.reactions, issues_skipped: c.skipped });
  }
  if (items.pull_requests) {
    stage('pull_requests');
    const c = await importPulls(ctx);
    Object.assign(counts, {
      pull_requests: c.items, pull_comments: c.comments, pull_reactions: c.reactions, pulls_skipped: c.skipped,
      reviews: c.reviews, pull_heads_missing: c.missingHeads,
    });
  }
  if ((items.issues || items.pull_requests) && source.getAllComments) {
    stage('comments');
    Object.assign(counts, await importRepoComments(ctx, source.getAllComments()));
  }
  if (items.issues || items.pull_requests || items.labels || items.milestones) await refreshCounters(ctx);
  opts.log.info({ repo: target.repo.id, counts }, 'migration: import finished');
  return counts;
}

/** A Gitea, Forgejo or Gogs source (the importer's first downloader, kept for its callers). */
export function importFromGitea(
  db: DB, target: { repo: Repository; owner: User; doer: User }, source: GiteaSource, opts: ImportOptions,
): Promise<ImportCounts> {
  const downloader = new GiteaDownloader(source, {
    dispatcher: opts.dispatcher, signal: opts.signal, maxAttempts: opts.maxAttempts, retryBackoffMs: opts.retryBackoffMs,
  });
  return importFromSource(db, target, downloader, opts);
}
