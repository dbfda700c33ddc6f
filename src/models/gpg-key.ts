import type { DB } from '../db/connect';
import type { GpgKey } from '../db/schema';

// GPG keys: a primary key row (primary_key_id '') and one row per subkey (primary_key_id set).

export async function keyIdUsed(db: DB, keyId: string): Promise<boolean> {
  const row = await db.selectFrom('gpg_key').select('id').where('key_id', '=', keyId).executeTakeFirst();
  return !!row;
}

export type NewGpgKey = Omit<GpgKey, 'id'>;

export async function insertGpgKey(db: DB, row: NewGpgKey): Promise<GpgKey> {
  return db.insertInto('gpg_key').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A primary key of the owner by row id. */
export async function getPrimaryGpgKey(db: DB, ownerId: number, id: number): Promise<GpgKey | undefined> {
  return db.selectFrom('gpg_key').selectAll()
    .where('id', '=', id).where('owner_id', '=', ownerId).where('primary_key_id', '=', '').executeTakeFirst();
}

/** A key or subkey of the owner by its key id. */
export async function getGpgKeyByKeyId(db: DB, ownerId: number, keyId: string): Promise<GpgKey | undefined> {
  return db.selectFrom('gpg_key').selectAll().where('owner_id', '=', ownerId).where('key_id', '=', keyId)
    .orderBy('id').executeTakeFirst();
}

export async function listPrimaryGpgKeys(db: DB, ownerId: number, offset: number, limit: number): Promise<{ keys: GpgKey[]; total: number }> {
  const base = db.selectFrom('gpg_key').where('owner_id', '=', ownerId).where('primary_key_id', '=', '');
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const keys = await base.selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return { keys, total: Number(count.n) };
}

export async function subkeysOf(db: DB, primaryKeyIds: string[]): Promise<GpgKey[]> {
  if (!primaryKeyIds.length) return [];
  return db.selectFrom('gpg_key').selectAll().where('primary_key_id', 'in', primaryKeyIds).orderBy('id').execute();
}

/** Removes a primary key and its subkeys. */
export async function deleteGpgKeyTree(db: DB, keyId: string): Promise<void> {
  await db.deleteFrom('gpg_key').where((eb) => eb.or([eb('key_id', '=', keyId), eb('primary_key_id', '=', keyId)])).execute();
}

export async function markGpgKeyVerified(db: DB, id: number): Promise<void> {
  await db.updateTable('gpg_key').set({ verified: 1 }).where('id', '=', id).execute();
}
