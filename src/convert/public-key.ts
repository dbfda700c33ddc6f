import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { KeyWithOwner } from '../services/user/keys';
import { toApiUser } from './user';

/**
 * Gitea's ToPublicKey; the owner and key type (appendPrivateInformation) only for the owner and
 * site admins, with the owner shown as to itself. read_only is omitted when false (user keys).
 */
export function toApiPublicKey(config: Config, { key, owner }: KeyWithOwner, viewer: User | null) {
  const out = {
    id: key.id,
    key: key.content,
    url: `${config.server.root_url}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.created_unix),
    last_used_at: isoTime(key.updated_unix),
  };
  if (!viewer || !(viewer.is_admin || viewer.id === key.owner_id)) return out;
  return {
    ...out,
    key_type: key.key_type || 'user',
    ...(owner ? { user: toApiUser(config, owner, owner) } : {}),
    ...(key.read_only ? { read_only: true } : {}),
  };
}
