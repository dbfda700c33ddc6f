import type { DB } from '../db/connect';
import type { AccessToken } from '../db/schema';

export async function getTokenByHash(db: DB, hash: string): Promise<AccessToken | undefined> {
  return db.selectFrom('access_token').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function listTokensOfUser(
  db: DB, uid: number, page: { offset: number; limit: number },
): Promise<{ tokens: AccessToken[]; total: number }> {
  const base = db.selectFrom('access_token').where('uid', '=', uid);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const tokens = await base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { tokens, total: Number(total.n) };
}

export async function findTokensOfUser(db: DB, uid: number, by: { id?: number; name?: string }): Promise<AccessToken[]> {
  let q = db.selectFrom('access_token').selectAll().where('uid', '=', uid);
  if (by.id !== undefined) q = q.where('id', '=', by.id);
  if (by.name !== undefined) q = q.where('name', '=', by.name);
  return q.execute();
}

export async function insertToken(db: DB, row: Omit<AccessToken, 'id'>): Promise<AccessToken> {
  return db.insertInto('access_token').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function deleteToken(db: DB, id: number): Promise<void> {
  await db.deleteFrom('access_token').where('id', '=', id).execute();
}

export async function touchToken(db: DB, id: number, unix: number): Promise<void> {
  await db.updateTable('access_token').set({ updated_unix: unix }).where('id', '=', id).execute();
}
