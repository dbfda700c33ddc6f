import type { DB } from '../db/connect';
import type { WebSession } from '../db/schema';

export async function insertWebSession(db: DB, row: Omit<WebSession, 'id'>): Promise<WebSession> {
  return db.insertInto('web_session').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getWebSessionByHash(db: DB, hash: string): Promise<WebSession | undefined> {
  return db.selectFrom('web_session').selectAll().where('key_hash', '=', hash).executeTakeFirst();
}

export async function touchWebSession(db: DB, id: number, lastSeen: number, expires: number): Promise<void> {
  await db.updateTable('web_session').set({ last_seen_unix: lastSeen, expires_unix: expires }).where('id', '=', id).execute();
}

export async function listWebSessionsOfUser(db: DB, uid: number, now: number): Promise<WebSession[]> {
  return db.selectFrom('web_session').selectAll().where('uid', '=', uid).where('expires_unix', '>', now)
    .orderBy('last_seen_unix', 'desc').execute();
}

export async function deleteWebSession(db: DB, id: number): Promise<void> {
  await db.deleteFrom('web_session').where('id', '=', id).execute();
}

/** Every session of the user but `keepId` (0: all of them); the number removed. */
export async function deleteWebSessionsOfUser(db: DB, uid: number, keepId = 0): Promise<number> {
  const res = await db.deleteFrom('web_session').where('uid', '=', uid).where('id', '!=', keepId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteExpiredWebSessions(db: DB, now: number): Promise<number> {
  const res = await db.deleteFrom('web_session').where('expires_unix', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
