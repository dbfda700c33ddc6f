import type { DB } from '../db/connect';
import type { PackageSigningKey } from '../db/schema';

// An owner's package signing keys (migration 0045): one row per owner and kind.

export const findSigningKey = (db: DB, ownerId: number, kind: string): Promise<PackageSigningKey | undefined> =>
  db.selectFrom('package_signing_key').selectAll().where('owner_id', '=', ownerId).where('kind', '=', kind).executeTakeFirst();

/** Inserts unless the owner has a key of that kind already (two first uses at once keep the first). */
export async function insertSigningKeyIfMissing(db: DB, k: { ownerId: number; kind: string; publicKey: string; privateKeySealed: string; fingerprint: string }): Promise<void> {
  await db.insertInto('package_signing_key').values({
    owner_id: k.ownerId, kind: k.kind, public_key: k.publicKey, private_key_sealed: k.privateKeySealed,
    fingerprint: k.fingerprint, created_unix: Math.floor(Date.now() / 1000),
  }).onConflict((oc) => oc.columns(['owner_id', 'kind']).doNothing()).execute();
}
