import type { CompiledQuery, InferResult } from 'kysely';
import type { DB } from '../db/connect';
import type { User, WebSession } from '../db/schema';
import { NOTIFY_STATUS } from './notification';

export async function insertWebSession(db: DB, row: Omit<WebSession, 'id'>): Promise<WebSession> {
  return db.insertInto('web_session').values(row).returningAll().executeTakeFirstOrThrow();
}

const HASH_MARK = '\0session key hash';

/** The statement of getWebSessionWithUser, for the hash of `hash`. */
const sessionQuery = (db: DB, hash: string) => db.selectFrom('web_session as ws').leftJoin('user as u', 'u.id', 'ws.uid').selectAll('u')
  .select((eb) => eb.selectFrom('notification as n').select(eb.fn.countAll<number>().as('c'))
    .whereRef('n.user_id', '=', 'ws.uid').where('n.status', '=', NOTIFY_STATUS.unread).as('ws_unread'))
  .select([
    'ws.id as ws_id', 'ws.key_hash as ws_key_hash', 'ws.uid as ws_uid', 'ws.created_unix as ws_created_unix', 'ws.last_seen_unix as ws_last_seen_unix',
    'ws.expires_unix as ws_expires_unix', 'ws.remember as ws_remember', 'ws.ip as ws_ip', 'ws.user_agent as ws_user_agent',
  ])
  .where('ws.key_hash', '=', hash);

type SessionRow = InferResult<ReturnType<typeof sessionQuery>>[number];

// Every signed-in page runs this statement first: Kysely building and compiling it (a join, a
// sub-select, ten aliases) cost more than SQLite running it, so it is compiled once per
// database with a marker where the hash goes, and each request swaps its hash in.
const compiledSession = new WeakMap<DB, CompiledQuery<SessionRow>>();

function sessionStatement(db: DB, hash: string): CompiledQuery<SessionRow> {
  let compiled = compiledSession.get(db);
  if (!compiled) {
    compiled = sessionQuery(db, HASH_MARK).compile();
    compiledSession.set(db, compiled);
  }
  return { ...compiled, parameters: compiled.parameters.map((p) => (p === HASH_MARK ? hash : p)) };
}

/**
 * The session of a key hash with its user (undefined when the user row is gone) and the user's
 * unread notifications, in one statement: every signed-in page reads all three (the header
 * shows the count).
 */
export async function getWebSessionWithUser(
  db: DB, hash: string,
): Promise<{ session: WebSession; user: User | undefined; unread: number } | undefined> {
  const row = (await db.executeQuery(sessionStatement(db, hash))).rows[0];
  if (!row) return undefined;
  const { ws_id, ws_key_hash, ws_uid, ws_created_unix, ws_last_seen_unix, ws_expires_unix, ws_remember, ws_ip, ws_user_agent, ws_unread, ...user } = row;
  const session: WebSession = {
    id: ws_id, key_hash: ws_key_hash, uid: ws_uid, created_unix: ws_created_unix, last_seen_unix: ws_last_seen_unix,
    expires_unix: ws_expires_unix, remember: ws_remember, ip: ws_ip, user_agent: ws_user_agent,
  };
  return { session, user: user.id === null ? undefined : (user as User), unread: Number(ws_unread ?? 0) };
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
