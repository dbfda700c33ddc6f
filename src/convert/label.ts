import type { Config } from '../config/schema';
import type { Label } from '../db/schema';

export type ApiLabel = {
  id: number; name: string; exclusive: boolean; is_archived: boolean; color: string; description: string; url: string;
};

/** Whose label it is, for its API URL: an organization's name or a repository's owner/name. */
export type LabelOwner = { org: string } | { repo: { owner: string; name: string } };

/** Gitea's ToLabel: colors are stored with '#', answered without. */
export function toApiLabel(config: Config, label: Label, owner: LabelOwner): ApiLabel {
  const base = `${config.server.root_url}api/v1/`;
  const url = 'org' in owner
    ? `${base}orgs/${encodeURIComponent(owner.org)}/labels/${label.id}`
    : `${base}repos/${encodeURIComponent(owner.repo.owner)}/${encodeURIComponent(owner.repo.name)}/labels/${label.id}`;
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive === 1,
    is_archived: label.is_archived === 1,
    color: label.color.replace(/^#+/, ''),
    description: label.description,
    url,
  };
}
