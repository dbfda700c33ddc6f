import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { DeployKeyRow } from '../models/deploy-key';
import type { RepoAccess } from '../services/repo/repos';
import { repoUrls, toApiRepo } from './repo';

/**
 * Gitea's ToDeployKey; the repository (appendPrivateInformation) only for site admins and the
 * repository's owner, as Gitea's ListDeployKeys and GetDeployKey.
 */
export function toApiDeployKey(config: Config, access: RepoAccess, key: DeployKeyRow, viewer: User | null) {
  const out = {
    id: key.id,
    key_id: key.key_id,
    key: key.content,
    url: `${repoUrls(config, access.owner.name, access.repo.name).url}/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.created_unix),
    read_only: !!key.read_only,
  };
  if (!viewer || !(viewer.is_admin || viewer.id === access.owner.id)) return out;
  return { ...out, repository: toApiRepo(config, { repo: access.repo, owner: access.owner, mode: 3 }, viewer) };
}
