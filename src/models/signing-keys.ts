import type { DB } from '../db/connect';
import type { GpgKey, PublicKey, User } from '../db/schema';

// Keys looked up by commit signature verification, a page of commits at a time.

/** GPG keys (primary or subkey) with these key ids, of any owner. */
export async function gpgKeysByKeyIds(db: DB, keyIds: string[]): Promise<GpgKey[]> {
  if (!keyIds.length) return [];
  return db.selectFrom('gpg_key').selectAll().where('key_id', 'in', keyIds).orderBy('id').execute();
}

/** Every GPG key row (primaries and subkeys) of these owners. */
export async function gpgKeysOfOwners(db: DB, ownerIds: number[]): Promise<GpgKey[]> {
  if (!ownerIds.length) return [];
  return db.selectFrom('gpg_key').selectAll().where('owner_id', 'in', ownerIds).orderBy('id').execute();
}

/** Activated addresses (lower-cased) per user. */
export async function activatedEmailsOf(db: DB, uids: number[]): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (!uids.length) return out;
  const rows = await db.selectFrom('email_address').select(['uid', 'lower_email'])
    .where('uid', 'in', uids).where('is_activated', '=', 1).execute();
  for (const r of rows) {
    if (!out.has(r.uid)) out.set(r.uid, new Set());
    out.get(r.uid)!.add(r.lower_email);
  }
  return out;
}

/** Users' own (not deploy) SSH keys with these fingerprints. */
export async function sshKeysByFingerprints(db: DB, fingerprints: string[]): Promise<PublicKey[]> {
  if (!fingerprints.length) return [];
  return db.selectFrom('public_key').selectAll().where('fingerprint', 'in', fingerprints)
    .where('key_type', '!=', 'deploy').execute();
}

export async function usersByIdList(db: DB, ids: number[]): Promise<Map<number, User>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('user').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((u) => [u.id, u]));
}
