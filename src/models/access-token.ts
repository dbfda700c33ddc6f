import type { DB } from '../db/connect';
import { precompiled } from '../db/precompiled';
import type { AccessToken, User } from '../db/schema';

export type TokenWithUser = { token: Pick<AccessToken, 'id' | 'uid' | 'scope' | 'updated_unix'>; user: User | undefined };

/** Compiled once: every token-authenticated request runs it. */
const tokenWithUser = precompiled(1, (db: DB, hash: string) => db.selectFrom('access_token as t').leftJoin('user as u', 'u.id', 't.uid')
  .selectAll('u')
  .select(['t.id as token_id', 't.uid as token_uid', 't.scope as token_scope', 't.updated_unix as token_updated_unix'])
  .where('t.token_hash', '=', hash));

/**
 * A token by its hash with the account it belongs to (undefined when that row is gone), in one
 * statement: every token-authenticated request reads both (PostgreSQL: one round trip, not two).
 */
export async function getTokenWithUser(db: DB, hash: string): Promise<TokenWithUser | undefined> {
  const [row] = await tokenWithUser(db, hash);
  if (!row) return undefined;
  const { token_id: id, token_uid: uid, token_scope: scope, token_updated_unix: updated, ...user } = row;
  return { token: { id, uid, scope, updated_unix: updated }, user: user.id === null ? undefined : (user as User) };
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
