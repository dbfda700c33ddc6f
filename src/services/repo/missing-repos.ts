import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { initBare, repoDir, type ObjectFormat } from '../../git/repo';
import { listRepoLocations, type RepoLocation } from '../../models/repo-counters';
import { syncRepoFromGit } from './repo-sync';
import type { Hearth } from '../../hearth';

export type MissingRepo = RepoLocation & { dir: string };

/**
 * Repository rows whose bare directory is gone (Gitea's gatherMissingRepoRecords): what doctor
 * reports and what the reinit_missing_repos and delete_missing_repos cron tasks resolve.
 */
export async function findReposWithoutDirectory(db: DB, config: Config): Promise<MissingRepo[]> {
  const repos = await listRepoLocations(db);
  return repos
    .map((r) => ({ ...r, dir: repoDir(config.repository.root, r.ownerName, r.name) }))
    .filter((r) => !fs.existsSync(r.dir));
}

/**
 * An empty bare repository where the row's directory was (as creation makes one), then the
 * rows brought in line with it: no branches, is_empty. Returns the fresh row.
 */
export async function reinitRepository(h: Hearth, repo: Repository): Promise<Repository> {
  const dir = repoDir(h.config.repository.root, repo.owner_name, repo.name);
  const defaultBranch = repo.default_branch || h.config.repository.default_branch;
  await initBare(dir, { objectFormat: repo.object_format_name as ObjectFormat, defaultBranch });
  // No one pushed: the owner stands in as the pusher of the rows the resync writes (as doctor).
  return syncRepoFromGit(h.db, repo, dir, repo.owner_id);
}
