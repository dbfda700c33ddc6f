import type { GpgKey } from '../db/schema';
import { isoTime } from '../lib/time';
import type { GpgKeyView } from '../services/user/gpg-keys';

/** A key that never expires shows Go's zero time, as Gitea. */
const expiry = (unix: number) => (unix > 0 ? isoTime(unix) : '0001-01-01T00:00:00Z');

function base(k: GpgKey) {
  return {
    id: k.id,
    primary_key_id: k.primary_key_id,
    key_id: k.key_id,
    public_key: k.content,
  };
}

function flags(k: GpgKey) {
  return {
    can_sign: k.can_sign === 1,
    can_encrypt_comms: k.can_encrypt_comms === 1,
    can_encrypt_storage: k.can_encrypt_storage === 1,
    can_certify: k.can_certify === 1,
    verified: k.verified === 1,
    created_at: isoTime(k.created_unix),
    expires_at: expiry(k.expired_unix),
  };
}

/** Gitea's ToGPGKey; subkeys carry no emails (an empty list rather than Gitea's null). */
export function toApiGpgKey({ key, subkeys, emails }: GpgKeyView) {
  return {
    ...base(key),
    emails,
    subkeys: subkeys.map((s) => ({ ...base(s), emails: [], subkeys: [], ...flags(s) })),
    ...flags(key),
  };
}
