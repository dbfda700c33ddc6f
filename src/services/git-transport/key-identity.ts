import type { DB } from '../../db/connect';
import type { PublicKey } from '../../db/schema';
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
