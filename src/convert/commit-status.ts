import type { Config } from '../config/schema';
import type { CommitStatus, User } from '../db/schema';
import type { StatusState } from '../lib/commit-state';
import { isoTime } from '../lib/time';
import type { Combined, StatusesWithCreators } from '../services/repo/commit-statuses';
import type { RepoAccess } from '../services/repo/repos';
import { repoUrls, type ApiRepository } from './repo';
import { toApiUser } from './user';

/** CommitStatus: `id` is the per-commit index; both times are the creation time, as Gitea. */
export function toApiCommitStatus(config: Config, access: RepoAccess, row: CommitStatus, creators: Map<number, User>) {
  const { url } = repoUrls(config, access.owner.name, access.repo.name);
  const creator = creators.get(row.creator_id);
  return {
    id: row.idx,
    // Stored only after the body's enum admitted it.
    status: row.state as StatusState,
    target_url: row.target_url,
    description: row.description,
    url: `${url}/statuses/${encodeURIComponent(row.sha)}`,
    context: row.context,
    creator: creator ? toApiUser(config, creator, null) : null,
    created_at: isoTime(row.created_unix),
    updated_at: isoTime(row.created_unix),
  };
}

export function toApiCommitStatuses(config: Config, access: RepoAccess, s: StatusesWithCreators) {
  return s.rows.map((r) => toApiCommitStatus(config, access, r, s.creators));
}

export function toApiCombinedStatus(config: Config, access: RepoAccess, c: Combined, repository: ApiRepository) {
  const { url } = repoUrls(config, access.owner.name, access.repo.name);
  return {
    state: c.state,
    sha: c.sha,
    total_count: c.rows.length,
    statuses: toApiCommitStatuses(config, access, c),
    repository,
    commit_url: `${url}/commits/${c.sha}`,
    url: `${url}/commits/${c.sha}/status`,
  };
}
