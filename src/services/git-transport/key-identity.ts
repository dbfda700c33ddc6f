import type { DB } from '../../db/connect';
import type { PublicKey } from '../../db/schema';
import { parseSshPublicKey } from '../../lib/ssh-key';
import { getKeyByFingerprint, getPublicKey } from '../../models/public-key';
import { getUserById } from '../../models/user';
import type { KeyIdentity } from './target';

// Who an SSH key signs in: a user's key (users' own and admin-added ones) as its user, a deploy
// key as itself. One look-up on the unique fingerprint index; a user who may not sign in
// (inactive, prohibited) has no usable keys.

async function identityOf(db: DB, key: PublicKey | undefined): Promise<KeyIdentity | null> {
  if (!key) return null;
  if (key.key_type === 'deploy') return { kind: 'deploy', key };
  const user = await getUserById(db, key.owner_id);
  if (!user || !user.is_active || user.prohibit_login) return null;
  return { kind: 'user', key, user };
}

/** The identity of the key with this `SHA256:...` fingerprint, if it is one hearth knows. */
export const identityByFingerprint = async (db: DB, fingerprint: string) => identityOf(db, await getKeyByFingerprint(db, fingerprint));

/** The identity of a key by its id (`hearth serv key-N`, from the authorized_keys line). */
export const identityByKeyId = async (db: DB, id: number) => identityOf(db, await getPublicKey(db, id));

/** The identity of a key given as `TYPE BASE64` (sshd's %t %k), if hearth knows it. */
export async function identityByKeyContent(db: DB, content: string): Promise<KeyIdentity | null> {
  let fingerprint: string;
  try {
    fingerprint = parseSshPublicKey(content, ANY_SIZE).fingerprint;
  } catch {
    return null;
  }
  return identityByFingerprint(db, fingerprint);
}

// Sizes were checked when the key was added; here the key is only named.
const ANY_SIZE: Record<string, number> = { ed25519: 0, 'ed25519-sk': 0, ecdsa: 0, 'ecdsa-sk': 0, rsa: 0, dsa: 0 };
