import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { visibilityName } from '../services/visibility';
import { avatarUrl } from './user';

export type ApiOrg = {
  id: number; name: string; username: string; full_name: string; email: string; avatar_url: string;
  description: string; website: string; location: string; visibility: string; repo_admin_change_team_access: boolean;
};

/** Gitea's ToOrganization; `hideEmail` for anonymous callers of GET /orgs/{org}. */
export function toApiOrg(config: Config, org: User, opts: { hideEmail?: boolean } = {}): ApiOrg {
  return {
    id: org.id,
    name: org.name,
    username: org.name,
    full_name: org.full_name,
    email: opts.hideEmail ? '' : org.email,
    avatar_url: avatarUrl(config, org),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: visibilityName(org.visibility),
    repo_admin_change_team_access: org.repo_admin_change_team_access === 1,
  };
}

export type ApiOrgPermissions = {
  is_owner: boolean; is_admin: boolean; can_write: boolean; can_read: boolean; can_create_repository: boolean;
};

/** From the highest team mode (1 read .. 4 owner) and the repository-creation right. */
export function toApiOrgPermissions(mode: number, canCreateRepository: boolean): ApiOrgPermissions {
  return {
    can_read: mode > 0,
    can_write: mode > 1,
    is_admin: mode > 2,
    is_owner: mode > 3,
    can_create_repository: canCreateRepository,
  };
}
