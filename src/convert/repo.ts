import type { Config } from '../config/schema';
import { goDuration } from '../lib/go-duration';
import type { Mirror, Repository, User } from '../db/schema';
import type { ObjectFormat } from '../git/repo';
import { isoTime } from '../lib/time';
import { ACCESS } from '../services/permissions';
import { settingsOf, topicsOf } from '../services/repo/repo-settings';
import { toApiUser, type ApiUser } from './user';
import { httpCloneUrl, sshCloneUrl } from '../lib/clone-url';
import type { toApiRepoTransfer } from './repo-social';

type ApiRepoTransfer = ReturnType<typeof toApiRepoTransfer>;

export type ApiPermission = { admin: boolean; push: boolean; pull: boolean };
/** A repository as the API shows it; the parent of a fork and a pending transfer when there are. */
export type ApiRepository = ReturnType<typeof repoFields> & { parent?: ApiRepository; repo_transfer?: ApiRepoTransfer };

/** What the converter needs besides the row: its owner, the caller's mode, and the parent. */
export type RepoView = {
  repo: Repository;
  owner: User;
  mode: number;
  parent?: ApiRepository | null;
  language?: string;
  licenses?: string[];
  /** The pending transfer (RepoTransfer JSON), when there is one. */
  transfer?: ApiRepoTransfer | null;
  /** A pull mirror's row (loaded for repositories that are mirrors). */
  mirror?: Pick<Mirror, 'interval_seconds' | 'updated_unix'> | null;
};

export const permissionOf = (mode: number): ApiPermission => ({
  admin: mode >= ACCESS.admin, push: mode >= ACCESS.write, pull: mode >= ACCESS.read,
});

export function repoUrls(config: Config, ownerName: string, name: string) {
  const root = config.server.root_url;
  const html = `${root}${encodeURIComponent(ownerName)}/${encodeURIComponent(name)}`;
  return {
    html_url: html,
    clone_url: httpCloneUrl(config, ownerName, name),
    ssh_url: sshCloneUrl(config, ownerName, name),
    url: `${root}api/v1/repos/${encodeURIComponent(ownerName)}/${encodeURIComponent(name)}`,
    link: '',
  };
}

/** The stored SPDX identifiers (services/repo/licenses.ts keeps them current). */
export function licensesOf(repo: Pick<Repository, 'licenses'>): string[] {
  try {
    const l = JSON.parse(repo.licenses ?? '[]') as unknown;
    return Array.isArray(l) ? l.map(String) : [];
  } catch {
    return [];
  }
}

/** Every field of the reference's Repository, for a caller with access `mode`. */
export function toApiRepo(config: Config, view: RepoView, viewer: User | null): ApiRepository {
  return {
    ...repoFields(config, view, viewer),
    // Gitea omits parent and repo_transfer when there are none (omitempty).
    ...(view.parent ? { parent: view.parent } : {}),
    ...(view.transfer ? { repo_transfer: view.transfer } : {}),
  };
}

function repoFields(config: Config, view: Omit<RepoView, 'parent' | 'transfer'>, viewer: User | null) {
  const { repo, owner, mode } = view;
  const s = settingsOf(repo);
  const urls = repoUrls(config, owner.name, repo.name);
  return {
    id: repo.id,
    owner: toApiUser(config, owner, viewer) as ApiUser,
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.is_empty === 1,
    private: repo.is_private === 1,
    fork: repo.is_fork === 1,
    template: repo.is_template === 1,
    mirror: repo.is_mirror === 1,
    size: Math.round(repo.size / 1024),
    language: view.language ?? '',
    languages_url: `${urls.url}/languages`,
    html_url: urls.html_url,
    url: urls.url,
    link: urls.link,
    ssh_url: urls.ssh_url,
    clone_url: urls.clone_url,
    original_url: repo.original_url,
    website: repo.website,
    stars_count: repo.num_stars,
    forks_count: repo.num_forks,
    watchers_count: repo.num_watches,
    open_issues_count: repo.num_issues - repo.num_closed_issues,
    open_pr_counter: repo.num_pulls - repo.num_closed_pulls,
    release_counter: repo.num_releases,
    default_branch: repo.default_branch,
    archived: repo.is_archived === 1,
    created_at: isoTime(repo.created_unix),
    updated_at: isoTime(repo.updated_unix),
    archived_at: isoTime(repo.archived_unix),
    permissions: permissionOf(mode),
    has_code: s.has_code,
    has_issues: s.has_issues,
    internal_tracker: s.has_issues && !s.external_tracker ? s.internal_tracker : undefined,
    external_tracker: s.external_tracker ?? undefined,
    has_wiki: s.has_wiki,
    external_wiki: s.external_wiki ?? undefined,
    has_pull_requests: s.has_pull_requests,
    has_projects: s.has_projects,
    projects_mode: s.projects_mode,
    has_releases: s.has_releases,
    has_packages: s.has_packages,
    has_actions: s.has_actions,
    ignore_whitespace_conflicts: s.ignore_whitespace_conflicts,
    allow_merge_commits: s.allow_merge_commits,
    allow_rebase: s.allow_rebase,
    allow_rebase_explicit: s.allow_rebase_explicit,
    allow_squash_merge: s.allow_squash_merge,
    allow_fast_forward_only_merge: s.allow_fast_forward_only_merge,
    allow_rebase_update: s.allow_rebase_update,
    allow_manual_merge: s.allow_manual_merge,
    autodetect_manual_merge: s.autodetect_manual_merge,
    default_delete_branch_after_merge: s.default_delete_branch_after_merge,
    default_merge_style: s.default_merge_style,
    default_allow_maintainer_edit: s.default_allow_maintainer_edit,
    // As Gitea: an uploaded avatar's URL, empty for a repository without one.
    avatar_url: repo.avatar ? `${config.server.root_url}repo-avatars/${repo.avatar}` : '',
    internal: false,
    // As Gitea: from the mirror row; empty and the zero time for other repositories.
    mirror_interval: view.mirror ? goDuration(view.mirror.interval_seconds) : '',
    // Only sha1 and sha256 are ever stored (repo-create checks the option).
    object_format_name: repo.object_format_name as ObjectFormat,
    mirror_updated: view.mirror ? isoTime(view.mirror.updated_unix) : '0001-01-01T00:00:00Z',
    topics: topicsOf(repo),
    licenses: view.licenses ?? licensesOf(repo),
  };
}
