import type { Repository } from '../../db/schema';

/** Unit switches and merge settings of a repository, stored as JSON on the row. */
export type RepoSettings = {
  has_code: boolean; has_issues: boolean; has_wiki: boolean; has_pull_requests: boolean;
  has_projects: boolean; has_releases: boolean; has_packages: boolean; has_actions: boolean;
  allow_merge_commits: boolean; allow_rebase: boolean; allow_rebase_explicit: boolean;
  allow_squash_merge: boolean; allow_fast_forward_only_merge: boolean; allow_rebase_update: boolean;
  allow_manual_merge: boolean; autodetect_manual_merge: boolean; default_allow_maintainer_edit: boolean;
  default_delete_branch_after_merge: boolean; default_merge_style: string;
  ignore_whitespace_conflicts: boolean; projects_mode: string; mirror_interval: string;
  internal_tracker: { enable_time_tracker: boolean; allow_only_contributors_to_track_time: boolean; enable_issue_dependencies: boolean };
  external_tracker: null | {
    external_tracker_url: string; external_tracker_format: string;
    external_tracker_style: 'numeric' | 'alphanumeric' | 'regexp'; external_tracker_regexp_pattern: string;
  };
  external_wiki: null | { external_wiki_url: string };
};

// Gitea's defaults for a new repository.
export const DEFAULT_SETTINGS: RepoSettings = {
  has_code: true, has_issues: true, has_wiki: true, has_pull_requests: true,
  has_projects: true, has_releases: true, has_packages: true, has_actions: true,
  allow_merge_commits: true, allow_rebase: true, allow_rebase_explicit: true,
  allow_squash_merge: true, allow_fast_forward_only_merge: true, allow_rebase_update: true,
  allow_manual_merge: false, autodetect_manual_merge: false, default_allow_maintainer_edit: false,
  default_delete_branch_after_merge: false, default_merge_style: 'merge',
  ignore_whitespace_conflicts: false, projects_mode: 'all', mirror_interval: '',
  internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
  external_tracker: null,
  external_wiki: null,
};

// Settings by their stored text, parsed and merged over the defaults once: a page asks for them
// a dozen times (each unit's tab, the header, the forms), and most repositories share a few
// texts. Frozen (nested objects too) and shared by every caller: one that changes them spreads
// them into an object of its own first (repo-edit.ts), which the Readonly type asks for.
const PARSED_MAX = 500;
const parsed = new Map<string, Readonly<RepoSettings>>();

function parseSettings(text: string): Readonly<RepoSettings> {
  const hit = parsed.get(text);
  if (hit) return hit;
  let stored: Partial<RepoSettings> = {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) stored = value as Partial<RepoSettings>;
  } catch { /* unreadable: defaults */ }
  const merged = { ...DEFAULT_SETTINGS, ...stored };
  for (const v of Object.values(merged)) if (v && typeof v === 'object') Object.freeze(v);
  if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
  parsed.set(text, Object.freeze(merged));
  return merged;
}

export function settingsOf(repo: Pick<Repository, 'settings'>): Readonly<RepoSettings> {
  return parseSettings(repo.settings);
}

export const topicsOf = (repo: Pick<Repository, 'topics'>): string[] => {
  try {
    const t = JSON.parse(repo.topics) as unknown;
    return Array.isArray(t) ? t.map(String) : [];
  } catch {
    return [];
  }
};
