import type { DB } from '../db/connect';
import type { PublicKey } from '../db/schema';

// SSH public keys of users (key_type 'user'; 'deploy' rows are deploy keys'); the fingerprint is
// unique across all keys.

export async function getPublicKey(db: DB, id: number): Promise<PublicKey | undefined> {
  return db.selectFrom('public_key').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getKeyByFingerprint(db: DB, fingerprint: string): Promise<PublicKey | undefined> {
  return db.selectFrom('public_key').selectAll().where('fingerprint', '=', fingerprint).executeTakeFirst();
}

export async function keyNameUsed(db: DB, ownerId: number, name: string): Promise<boolean> {
  const row = await db.selectFrom('public_key').select('id').where('owner_id', '=', ownerId).where('name', '=', name)
    .where('key_type', '!=', 'deploy').executeTakeFirst();
  return !!row;
}

export async function insertPublicKey(
  db: DB, row: { ownerId: number; name: string; fingerprint: string; content: string; now: number },
): Promise<PublicKey> {
  return db.insertInto('public_key').values({
    owner_id: row.ownerId, name: row.name, fingerprint: row.fingerprint, content: row.content,
    key_type: 'user', created_unix: row.now, updated_unix: row.now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function deletePublicKey(db: DB, id: number): Promise<void> {
  await db.deleteFrom('public_key').where('id', '=', id).execute();
}

/** Keys of one owner (or of anyone: ownerId undefined), optionally with one fingerprint, oldest first; all without a page. */
export async function listPublicKeys(
  db: DB, q: { ownerId?: number; fingerprint?: string; page?: { offset: number; limit: number } },
): Promise<{ keys: PublicKey[]; total: number }> {
  // Deploy keys are the repositories' (deploy_key), not their owner's.
  let base = db.selectFrom('public_key').where('key_type', '!=', 'deploy');
  if (q.ownerId !== undefined) base = base.where('owner_id', '=', q.ownerId);
  if (q.fingerprint) base = base.where('fingerprint', '=', q.fingerprint);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let query = base.selectAll().orderBy('id');
  if (q.page) query = query.limit(q.page.limit).offset(q.page.offset);
  const keys = await query.execute();
  return { keys, total: Number(count.n) };
}

export async function markPublicKeyVerified(db: DB, id: number): Promise<void> {
  await db.updateTable('public_key').set({ verified: 1 }).where('id', '=', id).execute();
}
