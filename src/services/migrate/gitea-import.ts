import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import type { Logger } from '../../lib/logger';

// Reads a Gitea, Forgejo or Gogs repository's issues, pull requests, labels, milestones,
// releases and topics through the source's REST API and writes them into a repository that
// the migration has just cloned. (Filled in by the importer's change.)

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
  /** The instance's root URL and data directory, for attachments written to disk. */
  attachmentsDir: string;
};

export type ImportCounts = Record<string, number>;

export async function importFromGitea(
  _db: DB, _target: { repo: Repository; owner: User; doer: User }, _source: GiteaSource, _opts: ImportOptions,
): Promise<ImportCounts> {
  return {};
}
