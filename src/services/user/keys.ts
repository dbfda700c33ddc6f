import type { DB } from '../../db/connect';
import type { PublicKey, User } from '../../db/schema';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { parseSshPublicKey, SshKeyError, type SshPublicKey } from '../../lib/ssh-key';
import { nowUnix } from '../../lib/time';
import * as keys from '../../models/public-key';
import { usersByIds } from '../../models/user-lookup';

// Users' SSH public keys (they sign in to the SSH server and `hearth keys`), with Gitea's checks and
// messages: a parsable key of an allowed type and size, unique content, a title unique per user.

export type KeyWithOwner = { key: PublicKey; owner: User | undefined };
type Page = { offset: number; limit: number };

/** Parses a submitted key (user or deploy key) with Gitea's 422 on anything invalid. */
export function parseKeyInput(key: string): SshPublicKey {
  try {
    return parseSshPublicKey(key);
  } catch (err) {
    if (err instanceof SshKeyError) throw new InvalidError(`Invalid key content: ${err.message}`, 'key');
    throw err;
  }
}

/** POST /user/keys and /admin/users/{username}/keys; a deploy key's content is refused (unique fingerprint). */
export async function addPublicKey(db: DB, owner: User, input: { title: string; key: string }): Promise<PublicKey> {
  const parsed = parseKeyInput(input.key);
  return db.transaction().execute(async (trx) => {
    if (await keys.getKeyByFingerprint(trx, parsed.fingerprint)) {
      throw new InvalidError('Key content has been used as non-deploy key', 'key');
    }
    if (await keys.keyNameUsed(trx, owner.id, input.title)) throw new InvalidError('Key title has been used', 'title');
    return keys.insertPublicKey(trx, {
      ownerId: owner.id, name: input.title, fingerprint: parsed.fingerprint, content: parsed.content, now: nowUnix(),
    });
  });
}

async function withOwners(db: DB, list: PublicKey[]): Promise<KeyWithOwner[]> {
  const owners = new Map((await usersByIds(db, [...new Set(list.map((k) => k.owner_id))])).map((u) => [u.id, u]));
  return list.map((key) => ({ key, owner: owners.get(key.owner_id) }));
}

/**
 * A user's keys, paginated; with a fingerprint, the keys having it: the user's, or anyone's for
 * GET /user/keys (user undefined), unpaginated, as Gitea.
 */
export async function listPublicKeys(
  db: DB, user: User | undefined, fingerprint: string | undefined, page: Page,
): Promise<{ keys: KeyWithOwner[]; total: number }> {
  const found = await keys.listPublicKeys(db, fingerprint ? { ownerId: user?.id, fingerprint } : { ownerId: user?.id, page });
  return { keys: await withOwners(db, found.keys), total: found.total };
}

/** GET /user/keys/{id}: any key by id, as Gitea (its owner's details are for the owner and admins). */
export async function getPublicKey(db: DB, id: number): Promise<KeyWithOwner> {
  const key = await keys.getPublicKey(db, id);
  if (!key || key.key_type === 'deploy') throw new NotFoundError();
  return (await withOwners(db, [key]))[0]!;
}

/** DELETE /user/keys/{id} (doer: the caller) and /admin/users/{username}/keys/{id} (doer: that user). */
export async function deletePublicKey(db: DB, doer: User, id: number): Promise<void> {
  const key = await keys.getPublicKey(db, id);
  // Deploy keys go with DELETE /repos/{owner}/{repo}/keys/{id}.
  if (!key || key.key_type === 'deploy') throw new NotFoundError();
  if (!doer.is_admin && key.owner_id !== doer.id) throw new ForbiddenError('You do not have access to this key');
  await keys.deletePublicKey(db, id);
}
