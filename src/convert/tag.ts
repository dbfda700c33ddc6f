import type { Config } from '../config/schema';
import type { TagInfo } from '../git/refs';
import { isoTime } from '../lib/time';
import type { RepoAccess } from '../services/repo/repos';
import type { TagProtectionView } from '../services/repo/tag-protection';
import { repoUrls } from './repo';

/** Tag: `id` is the tag object of an annotated tag (the commit of a lightweight one). */
export function toApiTag(config: Config, access: RepoAccess, t: TagInfo) {
  const urls = repoUrls(config, access.owner.name, access.repo.name);
  return {
    name: t.name,
    message: t.message.trim(),
    id: t.id,
    commit: { url: `${urls.url}/git/commits/${t.commit}`, sha: t.commit, created: isoTime(t.unix) },
    zipball_url: `${urls.html_url}/archive/${t.name}.zip`,
    tarball_url: `${urls.html_url}/archive/${t.name}.tar.gz`,
  };
}

export function toApiTagProtection(v: TagProtectionView) {
  return {
    id: v.row.id,
    name_pattern: v.row.name_pattern,
    whitelist_usernames: v.users,
    whitelist_teams: v.teams,
    created_at: isoTime(v.row.created_unix),
    updated_at: isoTime(v.row.updated_unix),
  };
}
