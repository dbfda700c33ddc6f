import crypto from 'node:crypto';
import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import { visibilityName } from '../services/visibility';
import { hostOf } from '../lib/url-host';

export type ApiUser = {
  id: number; login: string; login_name: string; source_id: number; full_name: string; email: string;
  avatar_url: string; html_url: string; language: string; is_admin: boolean; last_login: string;
  created: string; restricted: boolean; active: boolean; prohibit_login: boolean; location: string;
  website: string; description: string; visibility: string; followers_count: number;
  following_count: number; starred_repos_count: number; username: string;
};

// Listings convert the same users again and again: their avatar hashes are kept rather than
// hashed for every item.
const HASH_CACHE_MAX = 4096;
const md5Cache = new Map<string, string>();
function md5Of(text: string): string {
  let hex = md5Cache.get(text);
  if (hex === undefined) {
    hex = crypto.createHash('md5').update(text).digest('hex');
    if (md5Cache.size >= HASH_CACHE_MAX) md5Cache.clear();
    md5Cache.set(text, hex);
  }
  return hex;
}

/**
 * An uploaded avatar by its hash; otherwise the generated one (routes/avatar.ts draws it from the
 * hash), named by the user id: not by the e-mail address, whose hash would give away a private one.
 */
export const avatarUrl = (config: Config, user: User): string => user.avatar
  ? `${config.server.root_url}avatars/${user.avatar}`
  : `${config.server.root_url}avatars/${md5Of(`hearth-default-avatar-${user.id}`)}`;

const noReplyEmail = (config: Config, user: User) => `${user.lower_name}@noreply.${hostOf(config.server.root_url)}`;

/**
 * As Gitea: the email shows to signed-in callers unless kept private; admin-only fields
 * (is_admin, login_name, last_login, language, active...) only to the user itself and site admins.
 */
export function toApiUser(config: Config, user: User, viewer: User | null): ApiUser {
  const authed = !!viewer && (viewer.is_admin === 1 || viewer.id === user.id);
  const showEmail = !!viewer && (!user.keep_email_private || authed);
  return {
    id: user.id,
    login: user.name,
    login_name: authed ? user.login_name : '',
    source_id: authed ? user.login_source : 0,
    full_name: user.full_name,
    email: showEmail ? user.email : noReplyEmail(config, user),
    avatar_url: avatarUrl(config, user),
    html_url: `${config.server.root_url}${encodeURIComponent(user.name)}`,
    language: authed ? user.language : '',
    is_admin: authed ? user.is_admin === 1 : false,
    // Gitea leaves this admin-only time.Time at its zero value for other callers.
    last_login: authed ? isoTime(user.last_login_unix) : '0001-01-01T00:00:00Z',
    created: isoTime(user.created_unix),
    restricted: user.is_restricted === 1,
    active: authed ? user.is_active === 1 : false,
    prohibit_login: authed ? user.prohibit_login === 1 : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: visibilityName(user.visibility),
    followers_count: user.num_followers,
    following_count: user.num_following,
    starred_repos_count: user.num_stars,
    username: user.name,
  };
}

export function toApiUserSettings(user: User) {
  return {
    full_name: user.full_name,
    website: user.website,
    description: user.description,
    location: user.location,
    language: user.language,
    theme: user.theme,
    diff_view_style: user.diff_view_style,
    hide_email: user.keep_email_private === 1,
    hide_activity: user.hide_activity === 1,
  };
}
